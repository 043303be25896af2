#!/usr/bin/env python3
"""A simulated model for `hone --evaluator llm`: an OpenAI-compatible endpoint
on this machine that judges from a bench set's gold files, so that the LLM
evaluator's path through the loop can be measured without a model.

It is an instrument, not a judge: it reads no code. Each file shown gets 0.95
when the fix changed it and 0.1 otherwise; with --flip P a judgment is turned
over with probability P, by a coin seeded from the task and the path, so a
file is judged the same way every time it is shown (a model that misreads a
file tends to misread it again), unlike `hone bench --judge oracle:P`, whose
coin is tossed per judgment.

    python3 bench/llm_oracle.py serve --flip 0 --log /tmp/shown.jsonl SET.jsonl ... &
    HONE_LLM_API_KEY=x HONE_CACHE_DIR=$(mktemp -d) \\
      hone bench SET.jsonl --evaluator llm --llm-provider openai \\
        --llm-base-url http://127.0.0.1:8765/v1 --llm-model oracle ...
    python3 bench/llm_oracle.py report --log /tmp/shown.jsonl SET.jsonl

report says in how many instances every gold file was shown to the model,
and how many files were shown (what a model would have read).
"""
import argparse
import http.server
import json
import random
import re
import statistics
import sys

TASK_RE = re.compile(r"Task: (.*?)\n\n(?:Files|Relevant files) \(\d+\):\n", re.S)
FILE_RE = re.compile(r"^### FILE: (.*)$", re.M)


def load(sets):
    gold = {}
    for path in sets:
        with open(path) as f:
            for line in f:
                x = json.loads(line)
                gold[x["problem_statement"].strip()] = set(x["gold_files"])
    return gold


def serve(args):
    gold = load(args.sets)
    log = open(args.log, "a") if args.log else None

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            n = int(self.headers["Content-Length"])
            req = json.loads(self.rfile.read(n))
            user = [m for m in req["messages"] if m["role"] == "user"][-1]["content"]
            m = TASK_RE.match(user)
            task = m.group(1).strip() if m else ""
            g = gold.get(task)
            if "\n\nRelevant files (" in user:
                # Enough: like `hone bench --judge oracle+done`, the model
                # knows how many files the change touches (not which) and
                # says enough once that many stand relevant in its own
                # judgments (the files listed, false positives included).
                listed = FILE_RE.findall(user)
                enough = g is not None and len(listed) >= len(g)
                if log:
                    log.write(json.dumps({"task": task, "known": g is not None, "enough": enough, "listed": listed}) + "\n")
                    log.flush()
                content = json.dumps({"enough": enough, "missing": "" if enough else "another file the change touches"})
                self.reply(content, len(user) // 4, 20)
                return
            evs = []
            for p in FILE_RE.findall(user):
                rel = 0.95 if g and p in g else 0.1
                if args.flip > 0 and random.Random(task + "\x00" + p).random() < args.flip:
                    rel = 0.1 if rel > 0.5 else 0.95
                evs.append({"path": p, "relevance": rel, "reason": "simulated from the gold files",
                            "missing_context": [], "critical": False})
            if log:
                log.write(json.dumps({"task": task, "known": g is not None, "paths": [e["path"] for e in evs]}) + "\n")
                log.flush()
            content = json.dumps({"evaluations": evs, "keywords": []})
            self.reply(content, len(user) // 4, 20 * len(evs))

        def reply(self, content, prompt_tokens, completion_tokens):
            body = json.dumps({"choices": [{"message": {"content": content}}],
                               "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


def report(args):
    gold = load(args.sets)
    shown, requests, asked = {}, 0, 0
    with open(args.log) as f:
        for line in f:
            x = json.loads(line)
            if "paths" in x:
                shown.setdefault(x["task"], set()).update(x["paths"])
                requests += 1
            else:
                asked += 1
    n = len(gold)
    every = sum(1 for t, g in gold.items() if g <= shown.get(t, set()))
    counts = [len(shown.get(t, ())) for t in gold]
    print(f"instances {n}; every gold file shown to the model {100 * every / n:.1f} %; "
          f"files shown median {statistics.median(counts)}, mean {statistics.mean(counts):.1f}; "
          f"requests: {requests} judging files, {asked} asking whether the relevant files are enough")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--flip", type=float, default=0.0)
    s.add_argument("--port", type=int, default=8765)
    s.add_argument("--log", help="append each request's task and files here (JSON lines)")
    s.add_argument("sets", nargs="+")
    r = sub.add_parser("report")
    r.add_argument("--log", required=True)
    r.add_argument("sets", nargs="+")
    args = ap.parse_args()
    (serve if args.cmd == "serve" else report)(args)


if __name__ == "__main__":
    sys.exit(main())
