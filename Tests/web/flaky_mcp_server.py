"""A stdio MCP server whose tools fail the ways real servers do, for Hearth's client tests.

Tools: `crash_server` (the process exits mid-call), `hang_forever` (never answers), `echo_words` (answers
with its text). Run by Hearth as `python flaky_mcp_server.py`.
"""

import os
import time

from mcp.server.fastmcp import FastMCP

server = FastMCP("flaky")


@server.tool()
def crash_server() -> str:
    """Crash the server process."""
    os._exit(3)


@server.tool()
def hang_forever() -> str:
    """Hang without ever answering."""
    time.sleep(3600)
    return "never"


@server.tool()
def echo_words(text: str) -> str:
    """Echo the words given back."""
    return f"echo: {text}"


if __name__ == "__main__":
    server.run()
