"""A scripted LSP server standing in for `lean-assess serve` in the plugin tests.

It offers what the proxy adds to Lean's server (a code lens, a hover with a section after `***`,
the three code actions, an executeCommand with a per-process name, workspace/codeLens/refresh) so
the Neovim plugin's wiring is tested on its own. The end-to-end test (e2e_spec.lua) runs the real
proxy instead. Every message received is appended as one JSON line to $STUB_LOG, preceded by a
line recording argv and PATH (to check that Neovim started it through the PATH given in cmd_env).
Stdlib only.
"""
import json
import os
import sys

LOG = os.environ.get("STUB_LOG")
COMMAND = f"lean-assess.{os.getpid()}.details"
state = {"lens_version": 1}


def log(obj):
    if LOG:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(obj) + "\n")


def read():
    headers = {}
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        k, _, v = line.decode().partition(":")
        headers[k.strip().lower()] = v.strip()
    return json.loads(sys.stdin.buffer.read(int(headers["content-length"])))


def send(msg):
    body = json.dumps(msg).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def reply(msg, result):
    send({"jsonrpc": "2.0", "id": msg["id"], "result": result})


def main():
    # STUB_PATH: the PATH the launcher script saw (python3 may be a wrapper that edits PATH).
    path = os.environ.get("STUB_PATH", os.environ.get("PATH", ""))
    log({"argv": sys.argv[1:], "path0": path.split(os.pathsep)[0],
         "config": os.environ.get("LEAN_ASSESS_CONFIG")})
    while True:
        msg = read()
        if msg is None:
            return
        log(msg)
        method = msg.get("method")
        if method == "initialize":
            reply(msg, {"capabilities": {
                "textDocumentSync": 2,
                "hoverProvider": True,
                "codeLensProvider": {"resolveProvider": False},
                "codeActionProvider": True,
                "executeCommandProvider": {"commands": [COMMAND]},
            }})
        elif method == "textDocument/codeLens":
            reply(msg, [{
                "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 7}},
                "command": {"title": f"TED 0.83 · v{state['lens_version']}", "command": COMMAND,
                            "arguments": ["lens"]},
            }])
        elif method == "textDocument/hover":
            reply(msg, {"contents": {"kind": "markdown",
                                     "value": "```lean\nt : 1 + 1 = 2\n```\n***\n**lean-assess** TED 0.83"}})
        elif method == "textDocument/codeAction":
            uri = msg["params"]["textDocument"]["uri"]
            reply(msg, [
                {"title": "Try this: rfl", "kind": "quickfix"},
                {"title": "Show differences", "command": {"title": "Show differences", "command": COMMAND,
                                                          "arguments": ["differences"]}},
                {"title": "Show proof path", "command": {"title": "Show proof path", "command": COMMAND,
                                                         "arguments": ["path"]}},
                {"title": "Use as reference", "edit": {"changes": {uri: [{
                    "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                    "newText": "-- @reference used\n"}]}}},
            ])
        elif method == "workspace/executeCommand":
            reply(msg, None)
            if msg["params"].get("arguments") == ["differences"]:
                state["lens_version"] += 1
                send({"jsonrpc": "2.0", "id": "stub:refresh", "method": "workspace/codeLens/refresh"})
        elif method == "shutdown":
            reply(msg, None)
        elif method == "exit":
            return
        elif "id" in msg and method is not None:
            reply(msg, None)


main()
