#!/usr/bin/env python3
"""Checks the Markdown links of README.md, docs/ and scripts/README.md: every relative link names a
file that exists, and every #anchor a heading of that file (GitHub's anchors: lower case, spaces to
dashes, punctuation dropped). Also checks that each `scripts/...`, `docs/...`, `Sources/...`,
`Tests/...` and `packaging/...` path named in backquotes exists. Prints what is broken; exits 1 then.

  python3 scripts/dev/check-doc-links.py
"""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent.parent
files = [root / "README.md", root / "scripts" / "README.md", *sorted((root / "docs").glob("*.md"))]


def anchors(path):
    found = set()
    for line in path.read_text().splitlines():
        heading = re.match(r"#+ (.*)", line)
        if heading:
            text = heading.group(1).strip().lower()
            text = re.sub(r"[^\w\- ]", "", text)
            found.add(text.replace(" ", "-"))
    return found


broken = []
for path in files:
    text = path.read_text()
    # Links outside code spans.
    prose = re.sub(r"`[^`\n]*`", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if re.match(r"[a-z]+://", target):
            continue
        name, _, anchor = target.partition("#")
        linked = (path.parent / name).resolve() if name else path
        if not linked.exists():
            broken.append(f"{path.relative_to(root)}: link to {target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{path.relative_to(root)}: link to {target}: no such heading")
    for named in re.findall(r"`((?:scripts|docs|Sources|Tests|packaging)/[^`\s*{}<>]+)", text):
        named = named.rstrip(".,:;)")
        if not (root / named).exists():
            broken.append(f"{path.relative_to(root)}: names {named}: no such path")
print("\n".join(broken) if broken else f"links and paths resolve in {len(files)} files")
sys.exit(1 if broken else 0)
