// The real codex under t4a, offline against the fake model server: the tests are in
// test/real-agents.ts, one file per CLI so the suite runs the CLIs side by side.
import { realAgentTests } from "./real-agents.ts";

realAgentTests("codex");
