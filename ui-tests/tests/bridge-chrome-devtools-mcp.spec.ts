/**
 * A desktop agent through chrome-devtools-mcp (`--categoryExperimentalWebmcp`):
 * an MCP client over stdio, the page's tools reached through the bridge's
 * `list_webmcp_tools` and `execute_webmcp_tool`. See ../bridge-suite.ts.
 */
import { defineBridgeSuite } from '../bridge-suite';

defineBridgeSuite('chrome-devtools-mcp');
