// The one definition of the contracts' version is their package.json; everything
// that checks compatibility (the shell's loader, the release and remotes commands)
// derives the major from it.
import pkg from '../../package.json' with { type: 'json' };

/**
 * The contracts' major version. A remote built against another major is refused
 * (DESIGN.md § Remote versions): its ShellContext or event types may differ.
 */
export const CONTRACTS_MAJOR: number = Number(pkg.version.split('.')[0]);
