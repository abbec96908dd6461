/** mcp-host entry: one long-lived process owning the MCP client sessions (DESIGN §1). */
export {};
