// What a session changed, for review before merging its work: the branch (one click copies it),
// the commits beyond its base, the files not committed, and the diff, coloured by line. Read from
// GET /api/sessions/:id/diff, the `diff` command's route.
import { $, api, element, sessionPath } from "./api.ts";

interface Changes {
  dir: string;
  branch?: string;
  base: string;
  commits: Array<{ sha: string; subject: string }>;
  files: Array<{ status: string; path: string }>;
  diff: string;
  cut: number;
}

/** The page asks for more than a script's default: a review wants the whole diff. */
const PAGE_MAX_DIFF = 400_000;

export async function showChanges(id: string): Promise<void> {
  $("#changes-title").textContent = `${id}: changes`;
  const body = $("#changes-body");
  body.replaceChildren(element("p", "dim", "reading…"));
  let changes: Changes;
  try {
    changes = await api<Changes>(sessionPath(id, `/diff?max_output=${PAGE_MAX_DIFF}`));
  } catch (error) {
    body.replaceChildren(element("p", "error", (error as Error).message));
    return;
  }
  const summary = element("div", "summary");
  if (changes.branch) {
    const copy = element("button", "copy", `Copy ${changes.branch}`);
    copy.title = "Copy the branch name";
    copy.addEventListener("click", async () => {
      await navigator.clipboard.writeText(changes.branch!).catch(() => {});
      copy.textContent = `✓ ${changes.branch} copied`;
    });
    summary.append(copy);
  }
  const ahead = changes.commits.length;
  const files = changes.files.length;
  summary.append(
    element(
      "span",
      "",
      `${ahead} commit${ahead === 1 ? "" : "s"} beyond ${changes.base.slice(0, 10)}, ` +
        `${files} uncommitted file${files === 1 ? "" : "s"} in ${changes.dir}`,
    ),
  );
  const sections: HTMLElement[] = [summary];
  if (ahead) {
    const list = element("ul", "commits");
    for (const commit of changes.commits) list.append(element("li", "", `${commit.sha} ${commit.subject}`));
    sections.push(element("h3", "", "Commits"), list);
  }
  if (changes.files.length) {
    const list = element("ul", "files");
    for (const file of changes.files) {
      const item = element("li", "");
      item.append(element("code", "status", file.status.replace(/ /g, "·")), document.createTextNode(` ${file.path}`));
      list.append(item);
    }
    sections.push(element("h3", "", "Not committed"), list);
  }
  sections.push(element("h3", "", changes.diff ? "Diff (base → working tree)" : "No differences"));
  if (changes.diff) sections.push(diffView(changes.diff));
  if (changes.cut)
    sections.push(
      element(
        "p",
        "dim",
        `${changes.cut} characters of the diff were left out (t4a diff ${id} --max-output N reads more).`,
      ),
    );
  body.replaceChildren(...sections);
}

function diffView(diff: string): HTMLPreElement {
  const pre = element("pre", "diff");
  for (const line of diff.split("\n")) {
    const kind =
      line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ") || line.startsWith("index ")
        ? "file"
        : line.startsWith("+")
          ? "add"
          : line.startsWith("-")
            ? "del"
            : line.startsWith("@@")
              ? "hunk"
              : "";
    pre.append(element("span", kind, `${line}\n`));
  }
  return pre;
}
