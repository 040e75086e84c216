// The variables that steer loaders, shells and runtimes, and the one split of an environment by them:
// what t4a's helpers outside a sandbox may start with, and what only the sandboxed program gets.
// Pure: it reads no environment of its own and spawns nothing.

/**
 * Variables that make something load, source or run code of their choosing, or read files that
 * steer it: glibc's own list of what it ignores in setuid programs (unsecvars.h, plus
 * GLIBC_TUNABLES), the shells' startup and prompt hooks and exported functions, the runtimes'
 * option and module-path variables (Bun, Node, Python, Perl, Ruby, Java), git's execution knobs
 * and the programs other tools run (editor, pager, askpass). A session's environment is tainted
 * (a sandbox can write the `.env` the next create reads): these never act on anything t4a runs
 * outside a sandbox (bwrap, the shims, `t4a sandbox-exec`, which is a Bun program, plugins and
 * their cleanups, setup); only the program gets them, set by sandbox-exec after the seccomp filter.
 * The one list: everything that splits or strips an environment uses it.
 */
const LOADER_VARIABLES = new RegExp(
  `^(${[
    // glibc (elf/dl-support, sysdeps/generic/unsecvars.h)
    "LD_.*",
    "GCONV_PATH",
    "GETCONF_DIR",
    "GLIBC_TUNABLES",
    "HOSTALIASES",
    "LOCALDOMAIN",
    "LOCPATH",
    "MALLOC_.*",
    "NIS_PATH",
    "NLSPATH",
    "RESOLV_HOST_CONF",
    "RES_OPTIONS",
    "TMPDIR",
    "TZDIR",
    // shells: files sourced by non-interactive shells, options, prompts, exported functions
    "BASH_ENV",
    "ENV",
    "ZDOTDIR",
    "SHELLOPTS",
    "BASHOPTS",
    "PS0",
    "PS1",
    "PS2",
    "PS4",
    "PROMPT_COMMAND",
    "BASH_FUNC_.*",
    "BASH_XTRACEFD",
    "INPUTRC",
    "IFS",
    "CDPATH",
    "GLOBIGNORE",
    // runtimes: Bun (t4a itself is a Bun program: BUN_OPTIONS=--preload runs before any of its code), Node, Python,
    // Perl, Ruby, Java, Tcl
    "BUN_.*",
    "NODE_OPTIONS",
    "NODE_PATH",
    "NODE_REPL_EXTERNAL_MODULE",
    "PYTHON.*",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "PERL5DB",
    "PERL_.*",
    "RUBYOPT",
    "RUBYLIB",
    "GEM_.*",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "TCLLIBPATH",
    // git's execution knobs (GIT_SSH_COMMAND, GIT_EXEC_PATH, GIT_CONFIG_*, GIT_DIR…) and what tools run for the user
    "GIT_.*",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "MANPAGER",
    "LESSOPEN",
    "LESSCLOSE",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "BROWSER",
    "VIMINIT",
    "EXINIT",
    // build tools and package managers a helper may run (a plugin preparing a project): each of
    // these makes one run code or fetch code to run (make's MAKEFLAGS=--eval=$(shell …) and
    // MAKEFILES ran shell as the user from a sandbox's .env; go's -toolexec and toolchain
    // download; cargo's and rustc's wrappers, runners and linkers; a C compiler's -fplugin;
    // pip's, uv's and bundler's index and config; OpenSSL's engines and providers, loaded by curl,
    // wget, Python; Lua's init; curl's and wget's rc files)
    "MAKEFLAGS",
    "MFLAGS",
    "GNUMAKEFLAGS",
    "MAKEFILES",
    "GOFLAGS",
    "GOENV",
    "GOTOOLCHAIN",
    "GOROOT",
    "GOPROXY",
    "GOWORK",
    "CARGO_.*",
    "RUST.*",
    "CC",
    "CXX",
    "CPP",
    "CFLAGS",
    "CXXFLAGS",
    "CPPFLAGS",
    "LDFLAGS",
    "CCACHE_.*",
    "PKG_CONFIG.*",
    "PIP_.*",
    "UV_.*",
    "POETRY_.*",
    "PIPENV_.*",
    "BUNDLE_.*",
    "YARN_.*",
    "COREPACK_.*",
    "GRADLE_.*",
    "MAVEN_.*",
    "DOTNET_.*",
    "CORECLR_.*",
    "COMPlus_.*",
    "PHPRC",
    "PHP_INI_SCAN_DIR",
    "R_PROFILE.*",
    "R_ENVIRON.*",
    "LUA_INIT.*",
    "LUA_PATH.*",
    "LUA_CPATH.*",
    "OPENSSL_CONF",
    "OPENSSL_ENGINES",
    "OPENSSL_MODULES",
    "CURL_HOME",
    "WGETRC",
    "TF_CLI_.*",
  ].join("|")})$`,
);

/**
 * An environment without the variables that steer loaders, shells and runtimes: what t4a's helpers outside a sandbox
 * get.
 */
export function withoutLoaderVariables(env: Record<string, string>): Record<string, string> {
  return splitLoaderVariables(env).safe;
}

/** The environment split: what bwrap may start with, and what only the program gets. */
export function splitLoaderVariables(env: Record<string, string>): {
  safe: Record<string, string>;
  loader: Record<string, string>;
} {
  const safe: Record<string, string> = {};
  const loader: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) (LOADER_VARIABLES.test(key) ? loader : safe)[key] = value;
  return { safe, loader };
}
