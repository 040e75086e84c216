import { expect, test } from "bun:test";
import { daemonClientEnv, SessionEnv } from "./session-env.ts";

test(
  "a helper outside the sandbox gets the client's PATH, HOME, SHELL, XDG and tool-configuration " +
    "locations, none of the loader list; the session's other variables stay (issue 56)",
  () => {
    const session = new SessionEnv({
      PATH: "/work/evil-bin",
      HOME: "/work/fake-home",
      SHELL: "/work/evil/bash",
      XDG_CONFIG_HOME: "/work/fake-config",
      KUBECONFIG: "/work/kube-with-an-exec-plugin",
      AWS_CONFIG_FILE: "/work/aws-with-credential-process",
      npm_config_script_shell: "/work/evil/sh",
      NPM_CONFIG_NODE_OPTIONS: "--require=/work/evil.js",
      LD_PRELOAD: "/work/evil.so",
      BASH_ENV: "/work/evil.sh",
      DATABASE_URL: "postgres://db/app",
    });
    const client = daemonClientEnv({
      PATH: "/usr/bin:/bin",
      HOME: "/home/me",
      SHELL: "/bin/bash",
      KUBECONFIG: "/home/me/.kube/config",
      npm_config_cache: "/home/me/.npm",
    });
    expect(session.forHelper(client)).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/me",
      SHELL: "/bin/bash",
      KUBECONFIG: "/home/me/.kube/config",
      npm_config_cache: "/home/me/.npm",
      DATABASE_URL: "postgres://db/app",
    });
    // The program itself gets all of it.
    expect(session.forProgram()).toMatchObject({
      KUBECONFIG: "/work/kube-with-an-exec-plugin",
      LD_PRELOAD: "/work/evil.so",
    });
    // A spread copies nothing; JSON shows the variables as data.
    expect({ ...session }).toEqual({});
    expect(JSON.parse(JSON.stringify({ env: session })).env.DATABASE_URL).toBe("postgres://db/app");
  },
);
