import './base.css';
import './access.css';
