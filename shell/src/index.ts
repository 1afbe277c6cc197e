// An async boundary: Module Federation negotiates the shared singletons
// (react, Chakra, contracts...) before any of them is evaluated.
import('./bootstrap.js').catch((error: unknown) => console.error('[shell] failed to start', error));
