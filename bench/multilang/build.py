#!/usr/bin/env python3
"""Build multi.jsonl: a small non-Python check set for hone, made of
bug-fix commits from well-known repositories (see README.md for the rules).

Usage:
  python3 build.py                 # write multi.jsonl (+ print per-repo summary)
  python3 build.py --show REPO     # print the chosen messages of one repo for review
  python3 build.py --cands REPO    # list all candidates of one repo, by bucket

Selection is mechanical (rules below); the only hand step is the DROP list:
commits whose message was read and found not to describe a problem. A dropped
commit is replaced by the next candidate of the same time bucket, in the same
fixed (hash) order. Nothing here looks at how any tool ranks an instance.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

MIRROR_ROOT = os.environ.get("MIRROR_ROOT", "")  # bare mirrors, <owner>+<name>/repo
OUT = os.environ.get("OUT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "multi.jsonl"))
SINCE = "2020-01-01"
PER_REPO = 6
MIN_BODY = 150          # characters of cleaned body (title excluded)
MIN_GOLD_LINES = 2      # added+deleted lines over gold files
MAX_GOLD_LINES = 300
MAX_GOLD_FILES = 3

# REPOS: (owner/name, language, revision): each log is read from that revision, the
# newest commit of the snapshot the set was built from, so a newer mirror gives the same set.
REPOS = [
    ("gin-gonic/gin", "go", "dcaa4296d111"), ("spf13/cobra", "go", "adbc8813901b"),
    ("BurntSushi/ripgrep", "rust", "3fce3b5bb023"), ("sharkdp/bat", "rust", "2ba8db9c14e5"),
    ("google/gson", "java", "9835b6f90192"), ("jhy/jsoup", "java", "46b620860af9"),
    ("axios/axios", "javascript", "23a25af0688d"), ("jquery/jquery", "javascript", "51eb576cca6f"),
    ("jqlang/jq", "c", "579e6f76cffd"), ("curl/curl", "c", "5c61e168698a"),
    ("fmtlib/fmt", "cpp", "60ccad511fd6"), ("nlohmann/json", "cpp", "199dea11b17c"),
    # Second batch (added later, same rules); appended so the first 66 lines of multi.jsonl stay as they were.
    ("caddyserver/caddy", "go", "0cf03d32f7d9"), ("prometheus/prometheus", "go", "d15adb9ad7e5"),
    ("tokio-rs/tokio", "rust", "ea91b33ca57f"), ("nushell/nushell", "rust", "3e1172d43cab"),
    ("apache/commons-lang", "java", "d15939ef46f0"), ("netty/netty", "java", "0bb88a3e061f"),
    ("preactjs/preact", "javascript", "f6c6cda581e1"), ("chartjs/Chart.js", "javascript", "cb02e1d207bd"),
    ("redis/redis", "c", "4f8cdc2a1ea5"), ("libuv/libuv", "c", "6179e7af8741"),
    ("catchorg/Catch2", "cpp", "a6ee7e20cd40"), ("Tencent/rapidjson", "cpp", "24b5e7a8b27f"),
]

LANG_EXT = {
    "go": (".go",),
    "rust": (".rs",),
    "java": (".java",),
    "javascript": (".js", ".mjs", ".cjs", ".jsx", ".ts", ".cts", ".mts"),
    "c": (".c", ".h"),
    "cpp": (".h", ".hpp", ".hh", ".hxx", ".cc", ".cpp", ".cxx", ".ipp", ".inl"),
}

TEST_DIRS = {"test", "tests", "testing", "testdata", "__tests__", "spec", "specs",
             "bench", "benches", "benchmark", "benchmarks", "fuzz", "fuzzing", "unittest", "unittests"}
TEST_NAME = re.compile(r"(_test\.go$|^test_|_test\.|\.test\.|\.spec\.|^tests?\.rs$|(^Test.*|.*Tests?)\.java$)")
DOC_EXT = (".md", ".markdown", ".rst", ".txt", ".adoc", ".html", ".1", ".3", ".pod", ".man", ".prebuilt")
DOC_NAME = re.compile(r"^(changelog|changes|news|history|release-notes|releases|authors|contributors|thanks|readme|license|copying)(\.|$)", re.I)
CI_PREFIX = (".github/", ".circleci/", ".azure-pipelines/", ".ci/", "ci/", "appveyor/")
CI_NAME = {".travis.yml", "appveyor.yml", ".cirrus.yml", "azure-pipelines.yml", ".appveyor.yml",
           ".gitignore", ".gitattributes", ".mailmap", ".editorconfig"}

TITLE_EXCLUDE = re.compile(
    r"\b(typos?|spelling|misspell\w*|bump\w*|release|changelog|formatting|reformat\w*|clang-format|rustfmt|gofmt|"
    r"lint\w*|clippy|deps?|dependenc\w*|dependabot|chore|docs?|documentation|readme|ci|refactor\w*|revert\w*|merge|"
    r"cleanup|clean up|style|whitespace|copyright|cosmetic|warnings?)\b", re.I)
# Conventional-commit prefixes of non-fix work (the "test:" kind changes test code inside source files).
TITLE_PREFIX_EXCLUDE = re.compile(r"^(tests?|docs?|ci|build|chore|style|refactor|perf|bench|release)(\([^)]*\))?!?:", re.I)
BUG_WORDS = re.compile(
    r"\b(fix(es|ed|ing)?|bugs?|crash(es|ed|ing)?|incorrect(ly)?|wrong(ly)?|broken|break(s|ing)?|regression|"
    r"fail(s|ed|ing|ure)?|errors?|panic(s|ked)?|segfaults?|leak(s|ed)?|overflows?|mistaken(ly)?|unexpected(ly)?|"
    r"hangs?|infinite|null pointer|npe|misbehav\w*)\b", re.I)

TRAILER = re.compile(
    r"^\s*(signed-off-by|co-authored-by|co-developed-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|"
    r"helped-by|requested-by|assisted-by|approved-by|authored-by|found-by|bisected-by|analyzed-by|"
    r"change-id|pr-url|pr|pull-request|cc|bug|ref|refs|reference|references|see-also|closes|fixes|fixed|resolves|"
    r"follow-up|followup|cherry-picked-from)\s*:", re.I)
# A line made only of issue keywords and references ("Fixes #12", "Fixes #1, Closes #2", "PR #3",
# "Closes https://github.com/o/r/pull/4", "Follow-up to 0123abcd") is an issue trailer.
ISSUE_WORDS = {"fix", "fixes", "fixed", "close", "closes", "closed", "resolve", "resolves", "resolved", "ref", "refs",
               "see", "related", "to", "part", "of", "addresses", "address", "this", "should", "follow-up",
               "followup", "follow", "up", "supersedes", "replaces", "and", "pr", "issue", "issues", "bug", "gh"}
ISSUE_REF = re.compile(r"^\(?(#\d+|gh-\d+|[\w.-]+/[\w.-]+#\d+|https?://\S+|[0-9a-f]{7,40})\)?[.:]?$", re.I)


def issue_line(line):
    toks = [t for t in re.split(r"[\s,;]+", line.strip().lstrip("-*").strip()) if t]
    if not toks or toks[0].lower().rstrip(":") not in ISSUE_WORDS:
        return False
    refs = 0
    for t in toks:
        if ISSUE_REF.match(t):
            refs += 1
        elif t.lower().rstrip(":") not in ISSUE_WORDS:
            return False
    return refs > 0


GENERIC_BY = re.compile(r"^\s*[A-Za-z]+(-[A-Za-z]+)*-by\s*:", re.I)  # any "Xxx-by:" trailer (curl has many kinds)
CHERRY = re.compile(r"^\s*\(cherry picked from commit [0-9a-f]+\)\s*$", re.I)

# Hand step: chosen commits whose message was read and judged not a problem description.
DROP = {
    "ee4de846a894e9049321e809d69f4343f62d2862": "gin: drops go1.12 support; squash list, no problem",
    "92a988d7613259f4edce0964a7244fc55a9ea015": "gin: squash list of 'fix: typo' lines",
    "4a3eb31fb15b2a2d78b4bdbe0c31a2c564b1977a": "gin: squash bullets (deps bump, refactor), no problem text",
    "9c1657134736b9deb1563d5d6cabe8f06904a8aa": "bat: clippy warning cleanup, not a bug",
    "aefc8fd8243b8270849aeecee7dc443210cd9b3b": "bat: code simplification, not a bug",
    "9ba3b6ed13ef1269b7dca6372ab2f18a89d0887f": "bat: squash bullets about adding a test",
    "28eca6a2be4fdce2a8863fbbdbfe0a6db1480c3b": "bat: clippy lint cleanup in test asserts",
    "08386daa3ae9a149ac27261579745cad11993b06": "bat: squash bullets, no problem described",
    "68528983d7739eafa4dd8b03b334e2b5584a1510": "bat: API semver annotation, not a bug",
    "9776ebfa0fbb9bfb4acc0075def45edc31779f3e": "bat: squash bullets (changelog chores), no problem described",
    "e7cf5c458374e5fc69dbdce6de5cb2c881521135": "gson: refactoring, not a bug",
    "10bdd6dc6a2f86151762e9c18d155970e90d14a9": "gson: simplification, not a bug",
    "5e277e42786ab6441b7dd6b1a8c34d545d132307": "gson: body only squash bullets",
    "ee61e3f020351f0498dd3ff8f8386b96454a4dfe": "gson: documentation (troubleshooting guide) change",
    "95792908f06b74a5c227798261ffc25be412e43e": "axios: squash bullets only",
    "32c7bcc0f233285ba27dec73a4b1e81fb7a219b3": "axios: feature, long squash bullet list",
    "258ca1ec6a373f85f7849308c967b7e6a993e6e7": "jquery: API rename, not a bug",
    "195c8e5ff5af6506e5c3e9423cd3c6e839b9cc86": "axios: squash bullets only",
    "9041c7d272a7d4c3ca416fcb12daf8e94240494d": "axios: squash bullets only",
    "e426910be7c417bdbcde9c18cb184ead826fc0e1": "axios: squash bullets only",
    "4461761fcb75a63fe4eab217e9e9632f48aa4dee": "axios: squash bullets only",
    "b0ebf9fcacbab3e5a020a1a4d5d3837342d7dcd7": "axios: squash bullets only (chores, readme)",
    "c00c4ddd87fc616e85b64ed4cfad19eec44f49a6": "axios: squash bullets only",
    "07a661a2a6b9092c4aa640dcc7f724ec5e65bdda": "axios: squash bullets only",
    "93ca49e6d1ac23fee33b3bc3b7f4d93dd1a25cb7": "jquery: simplification, list of unrelated changes",
    "b40a4807b604efbde51faf075d11e25441af1990": "jquery: size optimisation, not a bug report",
    "d2a23208206d7437295c72ca1f2b527f58ce310a": "fmt: squash bullets only",
    "7529af8f991e138669f277c7b8ce2c3d9130aa22": "fmt: 'potential workaround', squash bullets, no problem described",
    "58b83b71dcb32729dc0eb56bd75754fc344b1278": "json: squash bullets only",
    "261cc4e509c51d53c57d0c266abd4a78f134e6a4": "json: describes the change, not a problem",
    "93c9e0c703b98f5082413920a62067ae0b68671e": "json: squash bullets only",
    "48a102c2c5ef7c2552ea291f5527a8481c98a7a7": "json: squash bullets only",
    "fc3e64cbf9818a3973a93cac04e3513acf1fba3c": "json: squash bullets, compiler warning",
    "a8a547d7a212a6a39943bbd5b4220be504a1a33e": "json: squash bullets only",
    "ede66678580596028bcd6e18871a35a54bac01d7": "json: squash bullets only",
    "1deeb434c679e7908875ce4ce0ce4583071ecc74": "json: squash bullets, no problem described",
    "db61bb07f04512b6fc21a5ce4d2b7cd380a1e7fc": "gson: squash bullets, feature wording, no problem described",
    # Second batch (the 12 repositories added later), same criteria.
    "7b0962ba4df7e1dd7ab3f193fba394a4b899c431": "caddy: convenience default ('just a convenience'), not a bug",
    "48d723c07c52d76755ee323581a20777699f1557": "caddy: squash bullets of sub-commit titles only",
    "2f1d270968e050105e3f6814b1ef7e7660ed41ba": "caddy: feature (BindHost fallback), squash bullets",
    "d418e319ab626e4b7dab676a7db3405d24a4b58c": "caddy: parameter rename and new parser, feature",
    "616418281b49ed1052ee395b674d8df97c820b11": "caddy: feature (TLS key logging), squash bullets",
    "409a0721354354a2d13e5c110be0f7f03363652b": "caddy: feature (Windows service notifications), squash bullets",
    "10db57027df6925c1afc82db1e7ddd0ff2cc53a2": "caddy: general logging improvements, feature",
    "320c57291dbe06e00e0759bdb5cbbf0d622e5968": "caddy: squash bullets of sub-commit titles only",
    "4ae2ef94e0f6d5501a58f17925d8792bd891fd64": "prometheus: '## Changes' bullet list, no problem described",
    "82860a770c88f7624002ee38dbe3634a56ca2064": "prometheus: performance improvement, not a bug",
    "00b110c65c7af446e675ee27cb06b7971afc6e18": "prometheus: squash bullets of sub-commit titles only",
    "d6d9f97bacd2620d389fad7340af22d1281a0a1d": "prometheus: feature (histogram_fraction for classic histograms)",
    "c7bc56cf6c8f9c92e98beddca26ed9b47f8a5ac9": "prometheus: feature (new metrics), squash bullets",
    "ccab2b30c9d93adadd6a0ed75f92765cff258364": "prometheus: squash bullets of sub-commit titles only",
    "9f93c2d2e13798c22229347d2606a1e7108ad27b": "prometheus: feature (Remote Write 2.0 in promtool), squash bullets",
    "eefa6178fb30b907691f8f017f4a2f54498e1be4": "prometheus: squash bullets of sub-commit titles only",
    "2fe1e9fa93772fd831b1c040968bb748eac12795": "prometheus: squash bullets of sub-commit titles only",
    "1ec24a3295d603bb57d1fa47dbf68d226a709b78": "prometheus: test-framework API migration, feature",
    "f42ed03dc5be7290a913fe427cdf96f6d1bee792": "prometheus: optimisation, squash bullets",
    "c453def8c5c7529a727508c07c872912e1a27920": "prometheus: refactor (split out a function), squash bullets",
    "669592a2c4d59697ce3f654db2c1e7d5e3d42714": "prometheus: feature (new metric), squash bullets",
    "1861bf38f588b288bc66196aba1c2516f97aa90c": "prometheus: squash bullets of sub-commit titles only",
    "64a106c5dd31b59418192e0b98f47ff0d99713db": "prometheus: feature (logging), squash bullets",
    "73e2ce1bd6436e6818389d4ca87a554e64b980b0": "prometheus: squash bullets of sub-commit titles (and a revert) only",
    "029b45aa307af069a62a6673c800c55c00e4ceae": "prometheus: feature (service type metadata), squash bullets",
    "618d2bfc717050faa0368115e6c341eb211c2ccd": "tokio: error-message improvements, not a bug",
    "ef5b6af7f6b641db7a1ed1f09534bc75943bf835": "tokio: docstring change",
    "435e39001b04f5846d1e9db1b243e6b81982f654": "tokio: flaky doctest fix, not a library problem",
    "cc70a211ad4ce71388c99e8af7480f3ddddbf602": "tokio: feature (JoinSet::join_all)",
    "240cc44da87ac30188e946ed1003b0e67f64aad8": "tokio: consistency change and refactor, no problem described",
    "d8e105fe34ad94b8b6bd76cff930a2ae51277771": "nushell: refactor, squash bullets",
    "9ba16dbdaf50db1fdbab0ec0976f1d82226343b4": "nushell: adds doc examples, not a bug",
    "80ce8acf573946c6a7c776412ea2834890c91a87": "nushell: feature (ThemedPalette), squash bullets",
    "16f85f32a223274f725594057ae2187eaea086a3": "nushell: squash bullets of sub-commit titles only",
    "b4c5693ac61a7b8cb3a5479583acd90baf61caaf": "nushell: fixes a doc example, PR template only",
    "ead6fbdf9c8bf8e9818e063294e507e5e22d689f": "nushell: empty PR template, no problem described",
    "2ccc58e34472cbc0c4b9163bbd7f6b22dfda0089": "commons-lang: squash bullets of sub-commit titles only",
    "6a65b76f2ab90cad2c297ff0d9f747ebb982e515": "commons-lang: squash bullets of sub-commit titles only",
    "2621600f8096da0a93b9ba33962233b9e2c2fc2d": "commons-lang: javadoc wording fixes",
    "f2bdb0cb74a08b15439abf18df6ac2b52549394a": "commons-lang: feature (long support in BitField)",
    "7941cfd255ec2b2655a0c33a4eaa327d87ec416f": "commons-lang: Javadoc descriptions swapped, doc change",
    "19fa964de7c43e5e440f293d7341e0c4be681b4a": "commons-lang: performance improvement, not a bug",
    "ea47d47ea8ab89a8ab84488cac0d0ce030c28efd": "commons-lang: Spotbugs report paste, static-analysis finding",
    "2f07d02fca0a66144b7106298fd9eb207783fecc": "commons-lang: squash bullets of sub-commit titles only",
    "0f7d48488277cc64730b4b4ebe791986fa94da4e": "commons-lang: performance improvement, squash bullets",
    "352f9671b22448e69fba49d072561444388b1426": "commons-lang: ports a commons-text change, no problem described",
    "8f8cc04e65506fbe79bbc5efa6f7d44d65f0dbf1": "commons-lang: describes the change ('improve handling'), not a problem",
    "772f97c4378613d241ecacc2076fdda20d59e982": "commons-lang: squash bullets of sub-commit titles only",
    "553a0474ea11a9b61a8de618a3512f29f5a17368": "commons-lang: squash bullets of sub-commit titles only",
    "5f22e0451457abc62c87c83526ac129f89cc6d8f": "commons-lang: feature (reflect only given fields)",
    "4a9662e5e3d2d36d63c924e99fe9391b7b7df714": "commons-lang: deprecation, squash bullets",
    "2f44635026132ca5a82b523284c7b58538027867": "preact: squash bullets of sub-commit titles only",
    "ee67f64df56283adb3ab0826f260190e135eec34": "preact: squash bullets of sub-commit titles only",
    "613cacc0e3e9bb8b7547f26fea4061d54797e690": "preact: feature (debug throw on rerenders), squash bullets",
    "a32924c548a6b295325a6fd63e0ef51d4adb9220": "preact: squash bullets of sub-commit titles only",
    "51771f7864d288c7f6bd00fd138cf5de59dd5404": "preact: inlining/size optimisation, not a bug",
    "62c050fe57047b96f21f581a7b4f1072ff47aa2d": "preact: squash bullets about moving/adding tests",
    "709dc3e854f8eec5822723577b0fac1c65d2065e": "chartjs: squash bullets of sub-commit titles only",
    "d24fe14e711a48f3299d0e4894c5e3a34fb3cbb8": "chartjs: squash bullets of sub-commit titles only",
    "2c268f09437f88a8be1d0d0ce87e974d17354961": "chartjs: squash bullets of sub-commit titles only",
    "a3fc84113e51ebc34d7b897623469f591218bf7d": "chartjs: squash bullets of sub-commit titles only",
    "e08b17636b13f9b44342ca8b01943e5d87c6b38b": "chartjs: feature (locale option type), squash bullets",
    "6d3a1c5fa6ed1ff957ce08feb71ef9ad4a8f88c2": "chartjs: feature (active elements on top), squash bullets",
    "f0be17c85993aff79db293d6bdf5c7e07f90169f": "chartjs: feature (circular arc prop), squash bullets",
    "1253ceddb1f09513664b8f413720f7df0d24e195": "chartjs: squash bullets of sub-commit titles only",
    "d83f0467dae76cdf1191f47958b9de40d52a7016": "chartjs: feature (tooltip positioner improvements)",
    "1fef75d990ccdb557f19d9be5e67f217d8b5c90d": "chartjs: feature (borderSkipped === true)",
    "fbf3427ca2f7a1817abf93b10c6b8c30404a509a": "chartjs: squash bullets of sub-commit titles only",
    "8ff853c60e6cb9617fdadbfad415f68760844e96": "chartjs: feature (axis override), squash bullets",
    "f3f84fd624e9e7e750c15db0508b573bd09e8563": "chartjs: squash bullets of sub-commit titles only",
    "aebbb5afff8c330f53568d269e8d3518903fa828": "chartjs: squash bullets of sub-commit titles (and a revert) only",
    "5173d05978e02dbe3f00961f441e406c8118dc3b": "chartjs: typing feature, squash bullets",
    "03e9194be5e899e36ac077d8e33be6921d1eae2a": "chartjs: feature/refactor, squash bullets",
    "954ed953a54cd7ed7a7094549f21842407e3d6a3": "chartjs: squash bullets of sub-commit titles only",
    "ad7d4c6b709ce94ed9a2fa3a1fcf9b8cf7843eff": "redis: feature (rdb-only replication)",
    "2f6d4dabaa1d17346623d0fa71b8e7d2bae5187c": "redis: comment-only change",
    "457285827cfcc6bbe33abe9bd211e7cee332b3c5": "libuv: feature (new uv_fs_get_system_error API)",
    "e9caeb7d0be334ae804cb7680083845af6463b3d": "catch2: compiler-warning suppression, not a bug",
    "25282473514174bf306dd86657d4aee0609cda3f": "catch2: hardening from a warning sweep, no problem observed",
    "28e651f1521449f2fce8b202307b6312a0ebe429": "catch2: preparatory change; the failure described is of an alternative, not of the code",
    "7dae3efad2c49853ddab0b26d6d1c0e8b39603f7": "catch2: clang-tidy warning suppression, lint",
    "cca59235023fa30339086be845d9cd7214ecff91": "catch2: compiler-warning suppression, not a bug",
    "476ffa2fd272243275a74c36952f210267dc3088": "rapidjson: rename to avoid identifier shadowing, no behaviour problem",
}


def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir=" + gitdir, *args], check=True,
                          capture_output=True, text=True, errors="replace").stdout


def gitdir_of(repo):
    return os.path.join(MIRROR_ROOT, repo.replace("/", "+"), "repo")


def classify(path, lang):
    parts = path.split("/")
    name = parts[-1]
    low = path.lower()
    if any(low.startswith(p) for p in CI_PREFIX) or name in CI_NAME:
        return "ignore"
    if any(p.lower() in TEST_DIRS for p in parts[:-1]) or TEST_NAME.search(name):
        return "ignore"
    if DOC_NAME.match(name) or name.lower().endswith(DOC_EXT):
        return "ignore"
    if name.endswith(LANG_EXT[lang]):
        return "source"
    return "other"


def clean_message(msg):
    lines = msg.replace("\r\n", "\n").split("\n")
    title = lines[0].strip()
    body = [l for l in lines[1:]
            if not (TRAILER.match(l) or GENERIC_BY.match(l) or issue_line(l) or CHERRY.match(l))]
    body = "\n".join(body).strip("\n")
    body = re.sub(r"\n{3,}", "\n\n", body)  # only blank lines left by removed trailers
    return title, body.rstrip()


def commits(gitdir, rev="HEAD"):
    # --raw needs no blob contents (some snapshots lack big binary blobs); line counts
    # are taken later, for the source files of candidates only.
    out = git(gitdir, "log", "--no-merges", "--first-parent", "--no-renames", "--since=" + SINCE,
              "--format=%x00%H%x1f%P%x1f%cI%x1f%B%x1e", "--raw", "--no-abbrev", rev)
    for chunk in out.split("\x00")[1:]:
        head, _, rest = chunk.partition("\x1e")
        sha, parents, date, msg = head.split("\x1f", 3)
        status = {}
        for l in rest.strip("\n").split("\n"):
            if l.startswith(":"):
                meta, p = l.split("\t", 1)
                status[p] = meta.split()[-1]
        yield dict(sha=sha, parents=parents.split(), date=date, msg=msg, status=status, gitdir=gitdir)


def gold_lines(c, gold):
    out = git(c["gitdir"], "diff", "--numstat", c["parents"][0], c["sha"], "--", *gold)
    n = 0
    for l in out.strip().split("\n"):
        if l.strip():
            a, d, _ = l.split("\t", 2)
            n += (0 if a == "-" else int(a)) + (0 if d == "-" else int(d))
    return n


def candidate(c, lang):
    if len(c["parents"]) != 1:
        return None, "parents"
    title, body = clean_message(c["msg"])
    if TITLE_EXCLUDE.search(title) or TITLE_PREFIX_EXCLUDE.search(title):
        return None, "title-excluded"
    if len(body) < MIN_BODY:
        return None, "short-body"
    if not BUG_WORDS.search(title + "\n" + body):
        return None, "no-bug-word"
    gold = []
    for p, stat in c["status"].items():
        k = classify(p, lang)
        if k == "other":
            return None, "other-file"
        if k == "source":
            if stat != "M":
                return None, "source-added-or-deleted"
            gold.append(p)
    if not 1 <= len(gold) <= MAX_GOLD_FILES:
        return None, "gold-count"
    lines = gold_lines(c, gold)
    if not MIN_GOLD_LINES <= lines <= MAX_GOLD_LINES:
        return None, "gold-lines"
    return dict(sha=c["sha"], base=c["parents"][0], date=c["date"], title=title, body=body, raw=c["msg"],
                gold=sorted(gold), lines=lines), None


def buckets(cands):
    """Split date-ordered candidates into PER_REPO equal buckets, each in a fixed hash order."""
    cands = sorted(cands, key=lambda x: x["date"])
    n = len(cands)
    out = []
    for i in range(PER_REPO):
        b = cands[i * n // PER_REPO:(i + 1) * n // PER_REPO]
        out.append(sorted(b, key=lambda x: hashlib.sha1(x["sha"].encode()).hexdigest()))
    return out


def choose(repo, lang, rev, verbose=False):
    gd = gitdir_of(repo)
    cands, why = [], {}
    for c in commits(gd, rev):
        x, reason = candidate(c, lang)
        if x:
            cands.append(x)
        else:
            why[reason] = why.get(reason, 0) + 1
    chosen = []
    for b in buckets(cands):
        for x in b:
            if x["sha"] in DROP:
                continue
            chosen.append(x)
            break
    return cands, chosen, why


def instance_id(repo, x, gd):
    owner, name = repo.split("/")
    # N = the pull request number when the message names it: "(#N)" ending the title
    # (GitHub squash merge) or a "Closes #N" / "Closes gh-N" trailer (curl, jq, jquery);
    # otherwise the commit's position in history (git rev-list --count).
    m = re.search(r"\(#(\d+)\)\s*$", x["title"]) or \
        re.search(r"^\s*Closes:?\s+(?:#|gh-|https://github\.com/[\w.-]+/[\w.-]+/pull/)(\d+)\s*$", x["raw"], re.I | re.M)
    if m:
        n = m.group(1)
    else:
        n = git(gd, "rev-list", "--count", x["sha"]).strip()  # commit's position in history
    return f"{owner}__{name}-{n}"


def validate(gd, inst):
    def ok(obj):
        return subprocess.run(["git", "--git-dir=" + gd, "cat-file", "-e", obj],
                              capture_output=True).returncode == 0
    if not re.fullmatch(r"[0-9a-f]{40}", inst["base_commit"]) or not ok(inst["base_commit"] + "^{commit}"):
        return "base missing"
    for p in inst["gold_files"]:
        if not ok(inst["base_commit"] + ":" + p):
            return "gold missing at base: " + p
    return None


def main():
    args = sys.argv[1:]
    if not MIRROR_ROOT:
        sys.exit("build.py: set MIRROR_ROOT to the folder of bare mirrors (<owner>+<name>/repo)")
    if args and args[0] in ("--show", "--cands"):
        repo = args[1]
        lang, rev = {r: (l, v) for r, l, v in REPOS}[repo]
        cands, chosen, why = choose(repo, lang, rev)
        if args[0] == "--cands":
            for i, b in enumerate(buckets(cands)):
                print(f"--- bucket {i}: {len(b)}")
                for x in b:
                    print(("DROP " if x["sha"] in DROP else "     ") + x["sha"][:10], x["date"][:10], x["title"][:90])
        else:
            for x in chosen:
                print("=" * 100)
                print(x["sha"], x["date"][:10], x["gold"], x["lines"])
                print(x["title"] + "\n\n" + x["body"])
        return
    rows, seen = [], set()
    print(f"{'repo':32} {'lang':11} commits-since-{SINCE[:4]} candidates chosen")
    for repo, lang, rev in REPOS:
        gd = gitdir_of(repo)
        cands, chosen, why = choose(repo, lang, rev)
        total = sum(why.values()) + len(cands)
        print(f"{repo:32} {lang:11} {total:8} {len(cands):10} {len(chosen):6}   rejected: {why}")
        for x in sorted(chosen, key=lambda x: x["date"]):
            inst = {
                "instance_id": instance_id(repo, x, gd), "repo": repo, "mirror_repo": repo,
                "base_commit": x["base"], "problem_statement": x["title"] + "\n\n" + x["body"],
                "gold_files": x["gold"], "language": lang, "source": "commit",
            }
            err = validate(gd, inst)
            if err:
                print("  invalid, skipped:", x["sha"], err)
                continue
            if inst["instance_id"] in seen:
                print("  duplicate id, skipped:", inst["instance_id"])
                continue
            seen.add(inst["instance_id"])
            inst["_fix_commit"] = x["sha"]
            rows.append(inst)
    with open(OUT, "w") as f:
        for r in rows:
            r = {k: v for k, v in r.items() if not k.startswith("_")}
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    counts = {}
    for r in rows:
        counts[r["language"]] = counts.get(r["language"], 0) + 1
    print("wrote", len(rows), "instances to", OUT, counts)
    with open(OUT.replace(".jsonl", ".commits.tsv"), "w") as f:
        for r in rows:
            f.write(f"{r['instance_id']}\t{r['_fix_commit']}\t{r['base_commit']}\t{','.join(r['gold_files'])}\n")


if __name__ == "__main__":
    main()
