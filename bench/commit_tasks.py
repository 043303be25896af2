#!/usr/bin/env python3
"""One-line tasks from a repository's own commits, as dev-short.jsonl is built:
the task is a commit's subject (a fix, feat, perf or refactor in the
conventional-commit form, its type, scope and PR number cut off), the tree is
its parent, the gold files are the source files it changed (one to three,
tests, docs and playgrounds left out; all present at the parent), the gold
hunks the pre-image lines of its diff (a pure insertion is located at the
line it follows).

    python3 bench/commit_tasks.py --mirror /work/.mirror/nuxt+ui/repo \\
        --repo nuxt/ui --want vue --n 40 > nuxtui.jsonl
    hone bench nuxtui.jsonl --mirror-root /work/.mirror ...

--want keeps commits that change at least one file of those extensions
(vue, svelte, ts, ...); --n spreads the pick evenly over the last --depth
commits. Used for the Vue and Svelte check in BENCHMARKS.md (a check on
repositories no development set holds, not a benchmark).
"""
import argparse
import json
import re
import subprocess
import sys

SOURCE = ("vue", "svelte", "astro", "ts", "tsx", "js", "jsx", "mjs", "py", "go", "rs", "java", "cs", "kt", "swift", "scala", "dart")
LEFT_OUT = re.compile(r"(^|/)(\w*[Tt]ests?|__tests__|docs|playgrounds?|examples?|samples?|buildSrc)/|\.spec\.|\.test\.|\.d\.ts$")
# Commits that only move versions or dependencies say nothing of the code.
CHORE = re.compile(r"(?i)^(update|bump|upgrade)\b.*\b(dependency|dependencies|version|to v?\d)|^(release|prepare|merge|revert|format|lint)\b|^\[[^\]]*\]|\bv?\d+\.\d+\.\d+")
SUBJECT = re.compile(r"^(fix|feat|perf|refactor)(\([^)]*\))?!?:\s*(.+)$")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirror", required=True, help="a git directory (bare mirror)")
    ap.add_argument("--repo", required=True, help="owner/name, as hone bench's mirror_repo")
    ap.add_argument("--want", default="vue,svelte", help="extensions a gold file must have (comma-separated)")
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--depth", type=int, default=1500)
    ap.add_argument("--any-subject", action="store_true",
                    help="take plain subjects too (\"Fix crash when ...\"), for repositories without conventional commits")
    args = ap.parse_args()
    want = set(args.want.split(","))

    def git(*a):
        return subprocess.run(["git", "-C", args.mirror, *a], capture_output=True, text=True).stdout

    picked = []
    for line in git("log", "--no-merges", "--format=%H%x09%P%x09%s", "-n", str(args.depth)).splitlines():
        h, parents, subject = line.split("\t", 2)
        if " " in parents:
            continue
        m = SUBJECT.match(subject)
        if m:
            task = m.group(3).strip()
        elif args.any_subject and not re.match(r"^\w+(\([^)]*\))?!?:", subject):
            task = subject.strip()
        else:
            continue
        task = re.sub(r"\s*\(#\d+\)\s*$", "", task)
        if CHORE.search(task):
            continue
        if len(task.split()) < 2:
            continue
        task = task[0].upper() + task[1:]
        changed = [f for f in git("diff", "--name-only", parents, h).splitlines() if f.rsplit(".", 1)[-1] in SOURCE]
        gold = [f for f in changed if not LEFT_OUT.search(f)]
        if not gold or len(gold) > 3 or not any(f.rsplit(".", 1)[-1] in want for f in gold):
            continue
        if any(git("cat-file", "-t", f"{parents}:{f}").strip() != "blob" for f in gold):
            continue
        hunks, cur = [], None
        for l in git("diff", "-U0", parents, h, "--", *gold).splitlines():
            if l.startswith("--- a/"):
                cur = l[6:]
            hm = re.match(r"^@@ -(\d+)(?:,(\d+))? \+", l)
            if hm and cur:
                a, b = int(hm.group(1)), int(hm.group(2)) if hm.group(2) is not None else 1
                hunks.append({"path": cur, "lines": list(range(a, a + b)) if b > 0 else [a]})
        lang = "Vue" if any(f.endswith(".vue") for f in gold) else "Svelte" if any(f.endswith(".svelte") for f in gold) else "other"
        picked.append({"instance_id": args.repo.replace("/", "__") + "-" + h[:8], "repo": args.repo,
                       "mirror_repo": args.repo, "base_commit": parents, "problem_statement": task,
                       "gold_files": sorted(gold), "gold_hunks": hunks, "language": lang, "subject_raw": subject})
    step = max(1, len(picked) // args.n)
    for c in picked[::step][:args.n]:
        print(json.dumps(c))
    print(f"{len(picked)} commits qualify; {min(args.n, len(picked[::step]))} written", file=sys.stderr)


if __name__ == "__main__":
    main()
