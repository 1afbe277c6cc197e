/**
 * The Chakra UI exports the shell offers to every remote (DESIGN.md § remotes, shared
 * dependencies). Chakra is one page-wide singleton, and a shared module cannot be tree-shaken
 * by the build that provides it (it cannot know what the remotes will use), so the whole
 * library (~300 KB gz) used to load with the main screen. The shell now provides only this
 * set, and each remote declares in its mf-manifest.json (`metaData.tessera.chakraExports`)
 * what it uses; the shell refuses a release that needs a name missing here, the way it refuses
 * another contracts major, and falls back to the previous release. The names count wherever
 * they are imported in a remote's build, libraries included (@chakra-ui/charts takes several).
 *
 * Append only: a remote released earlier may use any name listed once. A remote that needs a
 * new component adds it here (a contracts minor), and the shell carrying it is deployed before
 * that remote goes live. The cheap layout primitives at the end are offered ahead of need.
 */
export const CHAKRA_EXPORTS = [
  // Used by the shell and the remotes today.
  'Alert',
  'Badge',
  'Box',
  'Button',
  'ButtonGroup',
  'Card',
  'Center',
  'ChakraProvider',
  'Checkbox',
  'CloseButton',
  'Code',
  'Dialog',
  'EmptyState',
  'Field',
  'Flex',
  'HStack',
  'Heading',
  'IconButton',
  'Image',
  'Input',
  'Link',
  'List',
  'Menu',
  'NativeSelect',
  'Popover',
  'Portal',
  'Progress',
  'Separator',
  'Skeleton',
  'Spinner',
  'Stack',
  'Table',
  'Tabs',
  'Tag',
  'Text',
  'Textarea',
  'Tooltip',
  'VStack',
  'Wrap',
  'chakra',
  'defaultSystem',
  // Imported by @chakra-ui/charts (mfe-sheets' charts) from the shared Chakra.
  'AbsoluteCenter',
  'ColorSwatch',
  'FormatNumber',
  'Show',
  'defineStyle',
  'useChakraContext',
  'useLocaleContext',
  // Layout primitives without behaviour of their own: a few hundred bytes each.
  'Container',
  'Grid',
  'GridItem',
  'Group',
  'Icon',
  'Kbd',
  'SimpleGrid',
  'Spacer',
  'Span',
  'Strong',
  'Em',
] as const;

export type ChakraExport = (typeof CHAKRA_EXPORTS)[number];

/**
 * The names a remote declares it uses that the shell does not provide, sorted; empty when
 * the shell can host it. A release from before declarations (none given) is taken as is.
 */
export function missingChakraExports(
  declared: readonly string[] | undefined,
  provided: readonly string[] = CHAKRA_EXPORTS,
): string[] {
  if (!declared) return [];
  const offered = new Set(provided);
  return [...new Set(declared.filter((name) => !offered.has(name)))].sort();
}
