// The extension's style sheet, as one <style> element. The .raw.css files
// come in as strings (the labextension build's rule for *.raw.css), already
// minified by lightningcss (webpack.config.js), so the bundle carries no
// style-loader or css-loader runtime.
import base from './base.raw.css';
import access from './access.raw.css';
import panel from './panel.raw.css';
import review from './review.raw.css';
import propose from './propose.raw.css';

const style = document.createElement('style');
style.textContent = base + access + panel + review + propose;
document.head.appendChild(style);
