// Debian packages the test suite needs: installed with apt-get when we are
// root, otherwise a clear message of what to install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

let aptUpdated = false;

function aptInstall(pkgs) {
  if (process.getuid?.() !== 0) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  return spawnSync('apt-get', ['install', '-y', '-qq', ...pkgs], { stdio: 'inherit', env }).status === 0;
}

const hasPostgres = () =>
  existsSync('/usr/lib/postgresql') &&
  readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The code runner's gVisor engine (issue 19): runsc, and Debian's Python with its packages. */
const GVISOR_PYTHON_PACKAGES = ['python3-pandas', 'python3-numpy', 'python3-scipy', 'python3-matplotlib', 'python3-openpyxl', 'python3-statsmodels', 'python3-seaborn', 'python3-sklearn'];
const hasRunsc = () => ['/usr/bin/runsc', '/usr/sbin/runsc', '/usr/local/bin/runsc'].some((p) => existsSync(p));
const hasGvisorPython = () =>
  spawnSync('/usr/bin/python3', ['-c', 'import pandas, numpy, scipy, matplotlib, openpyxl, statsmodels, seaborn, sklearn'], { stdio: 'ignore' }).status === 0;

/** LibreOffice headless, for api/test/export-libreoffice.test.ts (reads exported files back). */
const hasSoffice = () => (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/soffice`));

/** Returns null when ready, else the message saying what to install. */
export function ensureSystemDeps() {
  const missing = [];
  if (!hasPostgres()) missing.push('postgresql');
  if (!existsSync(CHROMIUM_PATH)) missing.push('chromium');
  if (!hasSoffice()) missing.push('libreoffice-calc-nogui');
  if (!hasRunsc()) missing.push('runsc');
  if (!hasGvisorPython()) missing.push(...GVISOR_PYTHON_PACKAGES);
  if (missing.length === 0) return null;
  console.log(`[deps] installing ${missing.join(', ')} with apt-get ...`);
  if (aptInstall(missing) && hasPostgres() && existsSync(CHROMIUM_PATH) && hasSoffice() && hasRunsc() && hasGvisorPython()) return null;
  return `The test suite needs Debian's ${missing.join(' and ')}: run as root \`apt-get install -y ${missing.join(' ')}\`.`;
}
