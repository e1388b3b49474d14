"""Drive `lean-assess mcp` with PyPI's `mcp` client (a client no one on this project wrote).

Usage: client.py LEAN_ASSESS_BINARY WORK_DIR
WORK_DIR holds Reference.lean, Candidate.lean and lean-assess.toml (written by tests/mcp.rs).
Exit status: 0 all assertions held, 1 an assertion failed, 77 the `mcp` package is missing.
"""

import asyncio
import json
import os
import sys

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
except ImportError as e:  # the Rust test prints that it was skipped
    print(f"SKIP: python package 'mcp' not importable ({e}); pip install -r tests/mcp/requirements.txt")
    sys.exit(77)


def attr(obj, snake, camel):
    """The python SDK renamed its fields to snake_case in 2.x; accept both spellings."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def is_error(result):
    return bool(attr(result, "is_error", "isError"))


def text_of(result):
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def payload(result):
    structured = attr(result, 'structured_content', 'structuredContent')
    if structured is not None:
        return structured
    return json.loads(text_of(result))


async def main(binary, work):
    params = StdioServerParameters(command=binary, args=["mcp"], cwd=work)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            info = attr(init, "server_info", "serverInfo")
            assert info.name == "lean-assess", info

            tools = await session.list_tools()
            names = sorted(t.name for t in tools.tools)
            assert names == ["check_integrity", "compare_statements", "list_references",
                             "operator_tree"], names
            for tool in tools.tools:
                assert attr(tool, "input_schema", "inputSchema")["type"] == "object", tool
                assert tool.description, tool

            # check_integrity: the project's corpus; an honest solution passes, a weakened one
            # fails on its statement with file and line, a missing task is a tool error.
            corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                  "fixtures", "integrity")
            task = os.path.join(corpus, "tasks", "amc12_2000_p5.lean")
            r = await session.call_tool("check_integrity", {
                "task": task, "solution": os.path.join(corpus, "honest", "amc12_2000_p5.lean")})
            assert not is_error(r), text_of(r)
            assert payload(r)["passed"] is True, payload(r)
            r = await session.call_tool("check_integrity", {
                "task": task,
                "solution": os.path.join(corpus, "cheats", "amc12_2000_p5--weakened.lean")})
            assert not is_error(r), text_of(r)
            p = payload(r)
            assert p["passed"] is False, p
            crit = [f["criterion"] for t in p["targets"] for f in t["findings"]]
            assert "statement" in crit, p
            assert all(f["line"] for t in p["targets"] for f in t["findings"]), p
            r = await session.call_tool("check_integrity", {"task": "NoSuchTask.lean",
                                                            "solution": task})
            assert is_error(r) and text_of(r).startswith("cannot read NoSuchTask.lean"), text_of(r)

            # compare_statements: a renamed copy is identical under ted, a flipped ≤ differs.
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::sq_nonneg'",
                "candidate": "Candidate.lean::square_nonneg",
                "metrics": ["ted", "transted-lite"],
            })
            assert not is_error(r), text_of(r)
            p = payload(r)
            assert p["reference"] == "Reference.lean::sq_nonneg'", p
            by = {m["metric"]: m for m in p["metrics"]}
            assert 0.0 < by["ted"]["score"] < 1.0, by["ted"]
            assert by["ted"]["verdict"] == "not shown", by["ted"]
            assert p["differences"], p
            assert any("≤" in d or "≥" in d for d in p["differences"]), p["differences"]
            # transted-lite closes the gap with a named rewrite (ge_iff_le), as `score` does.
            # The verdict is the evidence-based one of `score --json`: equivalent, with the path.
            assert by["transted-lite"]["score"] == 1.0, by["transted-lite"]
            assert by["transted-lite"]["verdict"] == "equivalent", by["transted-lite"]
            assert by["transted-lite"]["evidence"], by["transted-lite"]
            assert by["transted-lite"]["path"], by["transted-lite"]
            assert all({"rule", "side", "at"} <= set(s) for s in by["transted-lite"]["path"])

            # Text statements, header lines included.
            r = await session.call_tool("compare_statements", {
                "reference": "theorem a (x : ℕ) : x + 0 = x := by sorry",
                "candidate": "theorem b (y : ℕ) : y + 0 = y := by sorry",
                "free_cost": True,
            })
            assert not is_error(r), text_of(r)
            p = payload(r)
            assert p["metrics"][0]["metric"] == "ted" and p["metrics"][0]["score"] == 1.0, p
            # Same tree up to renaming, same (empty) headers: ted shows it equivalent.
            assert p["metrics"][0]["verdict"] == "equivalent" and p["differences"] == [], p

            # Errors are tool errors carrying the CLI's one-line message.
            r = await session.call_tool("compare_statements", {
                "reference": "Missing.lean", "candidate": "Candidate.lean"})
            assert is_error(r) and text_of(r).startswith("cannot read Missing.lean"), text_of(r)
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::nope", "candidate": "Candidate.lean"})
            assert is_error(r) and "nope" in text_of(r) and "\n" not in text_of(r), text_of(r)
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean", "candidate": "Candidate.lean", "metrics": ["tedd"]})
            assert is_error(r) and text_of(r).startswith("--metric: unknown metric 'tedd'"), text_of(r)
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean", "candidate": "Candidate.lean", "metrics": ["beq"]})
            assert not is_error(r), text_of(r)
            beq = payload(r)["metrics"][0]
            assert "needs a Lean server" in beq["error"] and "score" not in beq, beq
            assert beq["verdict"] == "error", beq

            # operator_tree, text and JSON.
            r = await session.call_tool("operator_tree", {"statement": "Reference.lean::mathd_algebra_10"})
            assert not is_error(r), text_of(r)
            tree = payload(r)["tree"]
            assert " _ = _ " in tree and "\n" in tree, tree
            r = await session.call_tool("operator_tree", {
                "statement": "theorem t (x : ℝ) : x ≤ x := by sorry", "format": "json"})
            assert not is_error(r), text_of(r)
            tree = payload(r)["tree"]
            assert isinstance(tree, dict) and "label" in tree and tree["children"], tree
            r = await session.call_tool("operator_tree", {"statement": "theorem t : := by"})
            assert not is_error(r) and payload(r)["unparsed"], text_of(r)
            r = await session.call_tool("operator_tree", {"statement": "Reference.lean::nope"})
            assert is_error(r) and "nope" in text_of(r), text_of(r)
            r = await session.call_tool("operator_tree", {"statement": "Reference.lean", "format": "dot"})
            assert is_error(r) and "format" in text_of(r), text_of(r)

            # list_references: the directive wins, then the config's explicit pair, then by name.
            r = await session.call_tool("list_references", {"file": "Candidate.lean"})
            assert not is_error(r), text_of(r)
            p = payload(r)
            assert p["config"] and p["config"][0].endswith("lean-assess.toml"), p
            refs = {t["theorem"]: t for t in p["theorems"]}
            assert refs["my_favorite_theorem"]["reference"]["kind"] == "theorem", refs
            assert refs["my_favorite_theorem"]["reference"]["name"] == "mathd_algebra_10", refs
            assert refs["my_favorite_theorem"]["reference"]["origin"].startswith("lean-assess.toml:"), refs
            assert refs["square_nonneg"]["reference"]["kind"] == "inline", refs
            assert refs["square_nonneg"]["reference"]["origin"].startswith("directive at Candidate.lean:"), refs
            assert refs["sum_odd"]["reference"]["kind"] == "by name", refs
            r = await session.call_tool("list_references", {"file": "Nowhere.lean"})
            assert is_error(r) and text_of(r).startswith("cannot read Nowhere.lean"), text_of(r)

    # With --lean-project, a Lean server that cannot start is a tool error, never a score.
    params = StdioServerParameters(
        command=binary,
        args=["mcp", "--lean-project", ".", "--server-command", "/nonexistent/lean-server"],
        cwd=work)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean", "candidate": "Candidate.lean",
                "metrics": ["ted", "transted"]})
            assert is_error(r), text_of(r)
            assert "/nonexistent/lean-server" in text_of(r) and "\n" not in text_of(r), text_of(r)
            # The offline metrics still answer on that server.
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean", "candidate": "Candidate.lean"})
            assert not is_error(r), text_of(r)

    print("OK: lean-assess mcp passed with the PyPI mcp client")


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1], sys.argv[2]))
    except AssertionError as e:
        print(f"FAIL: {e!r}")
        raise
