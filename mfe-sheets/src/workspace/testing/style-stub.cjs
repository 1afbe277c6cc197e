// Stylesheets imported by the grid (Handsontable's theme) have no meaning in jsdom.
module.exports = {};
