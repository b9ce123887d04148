/**
 * A desktop agent through @playwright/mcp: an MCP client over stdio, each
 * page tool listed as `webmcp_<name>` once the bridge took a snapshot. See
 * ../bridge-suite.ts.
 */
import { defineBridgeSuite } from '../bridge-suite';

defineBridgeSuite('playwright-mcp');
