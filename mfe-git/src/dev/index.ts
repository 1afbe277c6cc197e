// Module Federation negotiates shared modules asynchronously: the dev page's
// code must start behind a dynamic import.
void import('./bootstrap.js');
