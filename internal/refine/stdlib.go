package refine

import "strings"

// A utility library is no framework. frameworks learns the libraries the
// relevant files are written against (FluentValidation, express, celery)
// as the codebase's word for their concern. Some languages ship a standard
// library of utilities every program imports (itertools, functools, fmt,
// fs, std::collections): it names no concern, and learned as one it took
// the place of the files' own terms (over 40 django issues, itertools,
// chain and functools were the terms most often learned). Those are left
// out, by what is general knowledge of each language:
//
//   - Python: the top-level module of an import is in
//     sys.stdlib_module_names (CPython 3.11, private modules left out);
//   - Go: the first element of the import path has no dot (the go
//     command's own rule for the standard library);
//   - JavaScript and TypeScript: a "node:" import, or one of Node.js's
//     built-in modules by its bare name;
//   - Rust: std, core and alloc.
//
// Java's and C#'s standard libraries are left in: they hold application
// frameworks (javax.validation, System.ComponentModel.DataAnnotations, the
// pattern's ContosoUniversity example), not only utilities. C, C++, Ruby
// and PHP keep every import too.

// isStandardLibrary reports whether imp, an import of a file in language
// lang as package syntax normalises it, names the language's standard
// library of utilities (see above: not Java's or C#'s).
func isStandardLibrary(lang, imp string) bool {
	switch lang {
	case "python":
		top, _, _ := strings.Cut(imp, ".")
		return pythonStdlib[top]
	case "go":
		first, _, _ := strings.Cut(imp, "/")
		return first != "" && !strings.Contains(first, ".")
	case "javascript", "typescript", "tsx", "vue", "svelte", "astro":
		if strings.HasPrefix(imp, "node:") {
			return true
		}
		top, _, _ := strings.Cut(imp, "/")
		return nodeBuiltins[top]
	case "rust":
		for _, p := range []string{"std", "core", "alloc"} {
			if imp == p || strings.HasPrefix(imp, p+"::") {
				return true
			}
		}
	}
	return false
}

// nodeBuiltins are Node.js's built-in modules (node:module builtinModules,
// Node 20, without the underscore-prefixed internals).
var nodeBuiltins = map[string]bool{
	"assert": true, "async_hooks": true, "buffer": true, "child_process": true, "cluster": true, "console": true,
	"constants": true, "crypto": true, "dgram": true, "diagnostics_channel": true, "dns": true, "domain": true,
	"events": true, "fs": true, "http": true, "http2": true, "https": true, "inspector": true, "module": true,
	"net": true, "os": true, "path": true, "perf_hooks": true, "process": true, "punycode": true,
	"querystring": true, "readline": true, "repl": true, "stream": true, "string_decoder": true, "sys": true,
	"timers": true, "tls": true, "trace_events": true, "tty": true, "url": true, "util": true, "v8": true,
	"vm": true, "wasi": true, "worker_threads": true, "zlib": true,
}

// pythonStdlib is CPython 3.11's sys.stdlib_module_names without the
// private modules.
var pythonStdlib = map[string]bool{
	"__future__": true, "abc": true, "aifc": true, "antigravity": true, "argparse": true, "array": true,
	"ast": true, "asynchat": true, "asyncio": true, "asyncore": true, "atexit": true, "audioop": true,
	"base64": true, "bdb": true, "binascii": true, "bisect": true, "builtins": true, "bz2": true,
	"cProfile": true, "calendar": true, "cgi": true, "cgitb": true, "chunk": true, "cmath": true, "cmd": true,
	"code": true, "codecs": true, "codeop": true, "collections": true, "colorsys": true, "compileall": true,
	"concurrent": true, "configparser": true, "contextlib": true, "contextvars": true, "copy": true,
	"copyreg": true, "crypt": true, "csv": true, "ctypes": true, "curses": true, "dataclasses": true,
	"datetime": true, "dbm": true, "decimal": true, "difflib": true, "dis": true, "distutils": true,
	"doctest": true, "email": true, "encodings": true, "ensurepip": true, "enum": true, "errno": true,
	"faulthandler": true, "fcntl": true, "filecmp": true, "fileinput": true, "fnmatch": true, "fractions": true,
	"ftplib": true, "functools": true, "gc": true, "genericpath": true, "getopt": true, "getpass": true,
	"gettext": true, "glob": true, "graphlib": true, "grp": true, "gzip": true, "hashlib": true, "heapq": true,
	"hmac": true, "html": true, "http": true, "idlelib": true, "imaplib": true, "imghdr": true, "imp": true,
	"importlib": true, "inspect": true, "io": true, "ipaddress": true, "itertools": true, "json": true,
	"keyword": true, "lib2to3": true, "linecache": true, "locale": true, "logging": true, "lzma": true,
	"mailbox": true, "mailcap": true, "marshal": true, "math": true, "mimetypes": true, "mmap": true,
	"modulefinder": true, "msilib": true, "msvcrt": true, "multiprocessing": true, "netrc": true, "nis": true,
	"nntplib": true, "nt": true, "ntpath": true, "nturl2path": true, "numbers": true, "opcode": true,
	"operator": true, "optparse": true, "os": true, "ossaudiodev": true, "pathlib": true, "pdb": true,
	"pickle": true, "pickletools": true, "pipes": true, "pkgutil": true, "platform": true, "plistlib": true,
	"poplib": true, "posix": true, "posixpath": true, "pprint": true, "profile": true, "pstats": true,
	"pty": true, "pwd": true, "py_compile": true, "pyclbr": true, "pydoc": true, "pydoc_data": true,
	"pyexpat": true, "queue": true, "quopri": true, "random": true, "re": true, "readline": true,
	"reprlib": true, "resource": true, "rlcompleter": true, "runpy": true, "sched": true, "secrets": true,
	"select": true, "selectors": true, "shelve": true, "shlex": true, "shutil": true, "signal": true,
	"site": true, "smtpd": true, "smtplib": true, "sndhdr": true, "socket": true, "socketserver": true,
	"spwd": true, "sqlite3": true, "sre_compile": true, "sre_constants": true, "sre_parse": true, "ssl": true,
	"stat": true, "statistics": true, "string": true, "stringprep": true, "struct": true, "subprocess": true,
	"sunau": true, "symtable": true, "sys": true, "sysconfig": true, "syslog": true, "tabnanny": true,
	"tarfile": true, "telnetlib": true, "tempfile": true, "termios": true, "textwrap": true, "this": true,
	"threading": true, "time": true, "timeit": true, "tkinter": true, "token": true, "tokenize": true,
	"tomllib": true, "trace": true, "traceback": true, "tracemalloc": true, "tty": true, "turtle": true,
	"turtledemo": true, "types": true, "typing": true, "unicodedata": true, "unittest": true, "urllib": true,
	"uu": true, "uuid": true, "venv": true, "warnings": true, "wave": true, "weakref": true, "webbrowser": true,
	"winreg": true, "winsound": true, "wsgiref": true, "xdrlib": true, "xml": true, "xmlrpc": true,
	"zipapp": true, "zipfile": true, "zipimport": true, "zlib": true, "zoneinfo": true,
}
