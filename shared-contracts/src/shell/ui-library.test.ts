import { CHAKRA_EXPORTS, missingChakraExports } from './ui-library.js';
import { RemoteManifestFileSchema } from './remotes.js';

describe('Chakra exports the shell provides', () => {
  it('names what a remote needs and the shell lacks; a release without a declaration is taken as is', () => {
    expect(missingChakraExports(['Box', 'Button', 'Accordion', 'Slider', 'Accordion'])).toEqual(['Accordion', 'Slider']);
    expect(missingChakraExports(['Box', 'Dialog', 'chakra'])).toEqual([]);
    expect(missingChakraExports(undefined)).toEqual([]);
  });

  it('lists each name once', () => {
    expect(new Set(CHAKRA_EXPORTS).size).toBe(CHAKRA_EXPORTS.length);
  });

  it('a manifest may declare the exports its remote uses, and one from before that is still read', () => {
    const tessera = { remote: 'mfe-chat', version: '1.2.0', contractsMajor: 2 };
    const declared = RemoteManifestFileSchema.parse({ metaData: { tessera: { ...tessera, chakraExports: ['Box'] } } });
    expect(declared.metaData.tessera.chakraExports).toEqual(['Box']);
    expect(RemoteManifestFileSchema.parse({ metaData: { tessera } }).metaData.tessera.chakraExports).toBeUndefined();
  });
});
