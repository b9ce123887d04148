// A style sheet the labextension build loads as a string (*.raw.css, see
// style/index.js): in jest, the empty sheet. (JupyterLab's mapping of .css
// to identity-obj-proxy gives an object, which the sheets' joining turns
// into an error.)
module.exports = '';
