// The features' style sheet, as a second <style> element after the start's
// (style/index.js): the access markers, the Agent panel's sections, the
// review threads and badges, the Propose blocks. src/later.ts imports it,
// so it arrives with the code that draws them, and the start does not
// carry it (docs/architecture.md, "A small start").
import access from './access.raw.css';
import panel from './panel.raw.css';
import review from './review.raw.css';
import propose from './propose.raw.css';

const style = document.createElement('style');
style.textContent = access + panel + review + propose;
document.head.appendChild(style);
