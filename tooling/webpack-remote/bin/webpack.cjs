#!/usr/bin/env node
// The `webpack` command of every front-end package: webpack-cli from this package, so
// the remotes and the shell build with this one webpack instance (a second copy
// of webpack in the tree breaks the plugins' `instanceof Compilation` checks).
'use strict';
require('webpack-cli/bin/cli.js');
