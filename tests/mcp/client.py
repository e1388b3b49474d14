"""Drive `lean-assess mcp` with PyPI's `mcp` client (a client no one on this project wrote).

Usage: client.py LEAN_ASSESS_BINARY WORK_DIR [LEAN_STANDIN_BINARY]
WORK_DIR holds Reference.lean, Candidate.lean and lean-assess.toml (written by tests/mcp.rs),
and the stand-in's scripts success.jsonl and stall.jsonl.
With LEAN_STANDIN_BINARY (the project's scripted Lean server), the Lean-backed metrics are also
checked through `--lean-project`: a successful compare with progress notifications, and a call
that hits --lean-call-timeout (the stand-in stalls): failures, no scores, the server killed.
Exit status: 0 all assertions held, 1 an assertion failed, 77 the `mcp` package is missing.
"""

import asyncio
import json
import os
import shutil
import sys
import time

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
except ImportError as e:  # the Rust test fails naming the missing package
    print(f"python package 'mcp' not importable ({e}); pip install -r tests/mcp/requirements.txt")
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


async def main(binary, work, standin=None):
    params = StdioServerParameters(command=binary, args=["mcp"], cwd=work)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            info = attr(init, "server_info", "serverInfo")
            assert info.name == "lean-assess", info

            tools = await session.list_tools()
            names = sorted(t.name for t in tools.tools)
            assert names == ["check_integrity", "compare_many", "compare_statements",
                             "list_references", "operator_tree"], names
            for tool in tools.tools:
                assert attr(tool, "input_schema", "inputSchema")["type"] == "object", tool
                assert tool.description, tool
                # Every tool declares its output (MCP 2025-06-18 `outputSchema`); the SDK
                # validates each structured result below against it and raises if one differs.
                out = attr(tool, "output_schema", "outputSchema")
                assert out and out["type"] == "object" and out["required"], tool
            by_name = {t.name: t for t in tools.tools}
            # The metric names in the descriptions come from the registry: every one is there.
            described = json.dumps(attr(by_name["compare_statements"], "input_schema",
                                        "inputSchema")["properties"]["metrics"])
            for metric in ["ted", "path", "transted-lite", "transted", "beq", "beq+",
                           "beq+grind", "defeq"]:
                assert f" {metric}," in described or f" {metric} " in described, (metric, described)
            assert "started without --lean-project" in described, described

            # check_integrity: the project's corpus; an honest solution passes, a weakened one
            # fails on its statement with file and line, a missing task is a tool error.
            # The server reads files only under its roots (its working directory): the corpus
            # is copied into the workspace it runs in.
            corpus = os.path.join(work, "integrity")
            if not os.path.isdir(corpus):
                shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                             "..", "fixtures", "integrity"), corpus)
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
            assert is_error(r) and text_of(r).startswith("NoSuchTask.lean: cannot read"), text_of(r)

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
            # transted-lite shows them equivalent: nothing is listed as differing (as `score --json`).
            assert p["differences"] == [], p
            # transted-lite closes the gap with a named rewrite (ge_iff_le), as `score` does.
            # The verdict is the evidence-based one of `score --json`: equivalent, with the path.
            assert by["transted-lite"]["score"] == 1.0, by["transted-lite"]
            assert by["transted-lite"]["verdict"] == "equivalent", by["transted-lite"]
            assert by["transted-lite"]["evidence"], by["transted-lite"]
            # The rewrite steps are `rewrites` (`path` is a metric's name), as in `score --json`.
            assert by["transted-lite"]["rewrites"], by["transted-lite"]
            assert "path" not in by["transted-lite"], by["transted-lite"]
            assert all({"rule", "side", "at"} <= set(s) for s in by["transted-lite"]["rewrites"])
            assert p["verdict"] == "equivalent", p

            # Without `metrics`: transted-lite (with its verdict) and ted. The pair:
            # ted alone cannot show it, transted-lite's rewrites do.
            r = await session.call_tool("compare_statements", {
                "reference": "theorem a (n : ℕ) : 0 < n → 1 ≤ n",
                "candidate": "theorem b (n : ℕ) : n > 0 → n ≥ 1"})
            assert not is_error(r), text_of(r)
            p = payload(r)
            assert [m["metric"] for m in p["metrics"]] == ["transted-lite", "ted"], p
            assert p["metrics"][0]["verdict"] == "equivalent", p["metrics"][0]
            assert p["metrics"][1]["verdict"] == "not shown", p["metrics"][1]
            assert p["verdict"] == "equivalent" and p["differences"] == [], p

            # Unknown arguments are refused, naming them and the tool's own (a misspelt
            # `metric` would otherwise silently run the default metrics).
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::mathd_algebra_10", "candidate": "Candidate.lean::my_favorite_theorem", "metric": ["ted"]})
            assert is_error(r), text_of(r)
            assert text_of(r).startswith("compare_statements: unknown argument 'metric' "
                                         "(did you mean 'metrics'?)"), text_of(r)
            assert "candidate" in text_of(r) and "free_cost" in text_of(r), text_of(r)

            # compare_many: one reference, k candidates; a candidate that does not parse is an
            # entry with its error; the best is the first shown equivalent.
            many_steps = []

            async def on_many_progress(progress, total, message):
                many_steps.append((progress, total, message))

            r = await session.call_tool("compare_many", {
                "reference": "theorem a (n : ℕ) : 0 < n → 1 ≤ n",
                "candidates": ["theorem b (n : ℕ) : 0 < n → 2 ≤ n",
                               "theorem c : (1 = 1",
                               "theorem d (m : ℕ) : m > 0 → m ≥ 1",
                               "Candidate.lean::sum_odd"]},
                progress_callback=on_many_progress)
            assert not is_error(r), text_of(r)
            # One progress step per candidate.
            assert [(p, t) for p, t, _ in many_steps] == [(1, 4), (2, 4), (3, 4), (4, 4)], many_steps
            assert many_steps[0][2] == "candidate 1 of 4", many_steps
            p = payload(r)
            assert p["metrics"] == ["transted-lite", "ted"], p
            assert [c["index"] for c in p["candidates"]] == [0, 1, 2, 3], p
            assert [c["verdict"] for c in p["candidates"]] == [
                "not shown", "error", "equivalent", "not shown"], p["candidates"]
            assert p["candidates"][1]["candidate"] == "candidates[1]", p["candidates"][1]
            assert "candidates[1]" in p["candidates"][1]["error"], p["candidates"][1]
            assert p["candidates"][0]["differences"], p["candidates"][0]
            assert p["candidates"][3]["candidate"] == "Candidate.lean::sum_odd", p["candidates"][3]
            assert p["shown_equivalent"] == 1 and p["best"] == 2, p
            r = await session.call_tool("compare_many", {
                "reference": "Reference.lean::mathd_algebra_10", "candidates": ["Candidate.lean::my_favorite_theorem"] * 65})
            assert is_error(r) and "at most 64 per call" in text_of(r), text_of(r)
            r = await session.call_tool("compare_many", {
                "reference": "Reference.lean::mathd_algebra_10", "candidates": ["Candidate.lean::my_favorite_theorem"],
                "metrics": ["beq"]})
            assert is_error(r) and "call compare_statements once per candidate" in text_of(r), \
                text_of(r)

            # With ted alone nothing shows them equivalent: what differs, in the user's words.
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::sq_nonneg'",
                "candidate": "Candidate.lean::square_nonneg",
                "metrics": ["ted"],
            })
            assert not is_error(r), text_of(r)
            p = payload(r)
            assert p["differences"], p
            assert any("≤" in d or "≥" in d for d in p["differences"]), p["differences"]
            assert not any(" _ " in d for d in p["differences"]), p["differences"]

            # Text statements, header lines included.
            r = await session.call_tool("compare_statements", {
                "reference": "theorem a (x : ℕ) : x + 0 = x := by sorry",
                "candidate": "theorem b (y : ℕ) : y + 0 = y := by sorry",
                "free_cost": True,
            })
            assert not is_error(r), text_of(r)
            p = payload(r)
            assert p["metrics"][1]["metric"] == "ted" and p["metrics"][1]["score"] == 1.0, p
            # Same tree up to renaming, same (empty) headers: ted shows it equivalent.
            assert p["metrics"][1]["verdict"] == "equivalent" and p["differences"] == [], p

            # Errors are tool errors carrying the CLI's one-line message.
            r = await session.call_tool("compare_statements", {
                "reference": "Missing.lean", "candidate": "Candidate.lean::my_favorite_theorem"})
            assert is_error(r) and text_of(r).startswith("cannot read Missing.lean"), text_of(r)
            # A file of several statements and no name: which one is meant is asked, not guessed.
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean", "candidate": "Candidate.lean::my_favorite_theorem"})
            assert is_error(r) and "holds 3 statements" in text_of(r), text_of(r)
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::nope", "candidate": "Candidate.lean::my_favorite_theorem"})
            assert is_error(r) and "nope" in text_of(r) and "\n" not in text_of(r), text_of(r)
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::mathd_algebra_10", "candidate": "Candidate.lean::my_favorite_theorem", "metrics": ["tedd"]})
            assert is_error(r), text_of(r)
            assert text_of(r).startswith("argument 'metrics': unknown metric 'tedd'"), text_of(r)
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::mathd_algebra_10", "candidate": "Candidate.lean::my_favorite_theorem", "metrics": ["beq"]})
            assert not is_error(r), text_of(r)
            beq = payload(r)["metrics"][0]
            assert "needs a Lean server" in beq["error"] and "score" not in beq, beq
            assert beq["verdict"] == "error", beq
            # Phrased for an agent: how this server must be started, not a shell command.
            assert "started as `lean-assess mcp --lean-project DIR`" in beq["error"], beq
            assert "score --lean-project" not in beq["error"], beq

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
            r = await session.call_tool("operator_tree", {"statement": "Reference.lean::mathd_algebra_10", "format": "dot"})
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
            assert is_error(r) and text_of(r).startswith("Nowhere.lean: cannot read"), text_of(r)

    # With --lean-project, a Lean server that cannot start is a tool error, never a score.
    params = StdioServerParameters(
        command=binary,
        args=["mcp", "--lean-project", ".", "--server-command", "/nonexistent/lean-server"],
        cwd=work)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::mathd_algebra_10", "candidate": "Candidate.lean::my_favorite_theorem",
                "metrics": ["ted", "transted"]})
            assert is_error(r), text_of(r)
            assert "/nonexistent/lean-server" in text_of(r) and "\n" not in text_of(r), text_of(r)
            # The offline metrics still answer on that server.
            r = await session.call_tool("compare_statements", {
                "reference": "Reference.lean::mathd_algebra_10", "candidate": "Candidate.lean::my_favorite_theorem"})
            assert not is_error(r), text_of(r)

    if standin:
        await lean_backed(binary, work, standin)
    print("OK: lean-assess mcp passed with the PyPI mcp client")


def alive(pid):
    """Is the process there (and not a zombie)?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def lean_backed(binary, work, standin):
    project = os.path.join(work, "project")
    os.makedirs(project, exist_ok=True)
    # The server command records its pid, so the test can see it is gone after a timeout.
    pid_file = os.path.join(work, "standin.pid")
    wrapper = os.path.join(work, "standin.sh")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\necho $$ > '{pid_file}'\nexec '{standin}'\n")
    os.chmod(wrapper, 0o755)

    def server(script, *extra):
        env = {"LEAN_STANDIN_SCRIPT": os.path.join(work, script)}
        return StdioServerParameters(
            command=binary,
            args=["mcp", "--lean-project", project, "--server-command", wrapper, *extra],
            cwd=work, env=env)

    pair = {"reference": "theorem a (n : ℕ) : n + 0 = n",
            "candidate": "theorem b (m : ℕ) : m + 0 = m"}

    # A successful Lean-backed compare: scores and verdicts from the stand-in's answers, and a
    # progress notification per step (server started, each Lean metric, the offline rest).
    async with stdio_client(server("success.jsonl")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            compare = next(t for t in tools.tools if t.name == "compare_statements")
            assert "enabled on this server" in json.dumps(attr(compare, "input_schema", "inputSchema"))
            seen = []

            async def on_progress(progress, total, message):
                seen.append((progress, total, message))

            r = await session.call_tool("compare_statements", {
                **pair, "metrics": ["ted", "transted", "defeq", "beq"]},
                progress_callback=on_progress)
            assert not is_error(r), text_of(r)
            by = {m["metric"]: m for m in payload(r)["metrics"]}
            assert list(by) == ["ted", "transted", "defeq", "beq"], by
            assert by["transted"]["score"] == 1.0, by["transted"]
            assert by["transted"]["verdict"] == "equivalent", by["transted"]
            assert "transted_witness" in by["transted"]["proof_path"], by["transted"]
            assert by["defeq"]["equivalent"] is True, by["defeq"]
            assert by["beq"]["equivalent"] is True, by["beq"]
            assert all("error" not in m for m in by.values()), by
            # Steps 1..5 of 5, in order: the server, transted, defeq, beq, the offline part.
            assert [p for p, _, _ in seen] == [1, 2, 3, 4, 5], seen
            assert all(t == 5 for _, t, _ in seen), seen
            assert seen[0][2] == "Lean server started" and seen[1][2] == "transted finished", seen

    # A call that hits --lean-call-timeout: every Lean metric fails with the timeout (no score,
    # no verdict but "error"), the offline metric still answers, and the stand-in is killed.
    os.remove(pid_file)
    async with stdio_client(server("stall.jsonl", "--lean-call-timeout", "2")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            started = time.monotonic()
            r = await session.call_tool("compare_statements", {
                **pair, "metrics": ["transted", "ted", "beq"]})
            took = time.monotonic() - started
            assert not is_error(r), text_of(r)
            by = {m["metric"]: m for m in payload(r)["metrics"]}
            for name in ["transted", "beq"]:
                m = by[name]
                assert m["verdict"] == "error" and "score" not in m and "equivalent" not in m, m
                assert m["error"].startswith("timed out after 2 s (--lean-call-timeout)"), m
            assert by["ted"]["score"] == 1.0 or 0 < by["ted"]["score"] <= 1, by["ted"]
            assert took < 15, took
            with open(pid_file) as f:
                pid = int(f.read())
            # Killed, not just abandoned: the stand-in is gone while the MCP server still runs.
            deadline = time.monotonic() + 3
            while alive(pid) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert not alive(pid), f"the Lean server (pid {pid}) still runs after the timeout"
            timed_out_pid = pid
            # The server answers the next call.
            r = await session.call_tool("compare_statements", {**pair})
            assert not is_error(r), text_of(r)

    # A client that gives up on a call (the SDK sends `notifications/cancelled`): the Lean
    # server is killed then too, well before --lean-call-timeout.
    os.remove(pid_file)
    async with stdio_client(server("stall.jsonl")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            try:
                await asyncio.wait_for(session.call_tool("compare_statements", {
                    **pair, "metrics": ["transted"]}), 2.0)
                raise AssertionError("a stalled call answered")
            except asyncio.TimeoutError:
                pass
            with open(pid_file) as f:
                pid = int(f.read())
            deadline = time.monotonic() + 5
            while alive(pid) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert not alive(pid), f"the Lean server (pid {pid}) still runs after the cancel"
            r = await session.call_tool("compare_statements", {**pair})
            assert not is_error(r), text_of(r)
    print(f"lean-backed: {len(seen)} progress notifications; the timed-out call answered "
          f"after {took:.1f} s and its Lean server (pid {timed_out_pid}) is gone; a cancelled "
          f"call's Lean server (pid {pid}) is gone too")


if __name__ == "__main__":
    try:
        asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None))
    except AssertionError as e:
        print(f"FAIL: {e!r}")
        raise
