// The extension's style sheet at the start, as one <style> element: the
// rules of what the start shows (the status bar item, the tool list, the
// Agent panel's frame). The features' rules come with the later chunk
// (style/later.js, imported by src/later.ts), with the code that draws
// what they style. The .raw.css files come in as strings (the labextension
// build's rule for *.raw.css), already minified by lightningcss
// (webpack.config.js), so the bundle carries no style-loader or css-loader
// runtime.
import base from './base.raw.css';
import frame from './panel-frame.raw.css';

const style = document.createElement('style');
style.textContent = base + frame;
document.head.appendChild(style);
