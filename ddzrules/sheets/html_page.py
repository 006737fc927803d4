"""The HTML writer of the document model: one self-contained page (its style inline, no
script, no ``src=`` or ``href=``) that parses as XML, every text escaped.
"""

from __future__ import annotations

import html

from ddzrules.sheets.document import (
    Block,
    Bullets,
    Heading,
    Inline,
    Para,
    clean,
    merged,
    plain,
    printable,
)

_CSS = """\
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.45; color: #1d1d1f; }
h1 { font-size: 1.6rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; }
h3 { margin-top: 1.4rem; }
table { border-collapse: collapse; margin: 0.6rem 0; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f4f4f6; }
code { font-family: ui-monospace, monospace; background: #f4f4f6; padding: 0 0.2rem; }
"""


def _html_inline(runs: Inline) -> str:
    out = []
    for style, text in merged(runs):
        t = html.escape(printable(text), quote=True)
        out.append(
            f"<code>{t}</code>"
            if style == "code"
            else f"<strong>{t}</strong>"
            if style == "b"
            else t
        )
    return "".join(out)


def write_html(blocks: list[Block], lang: str) -> str:
    title = next((b.text for b in blocks if isinstance(b, Heading)), plain(""))
    body = []
    for b in blocks:
        if isinstance(b, Heading):
            body.append(f"<h{b.level}>{_html_inline(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            body.append(f"<p>{_html_inline(b.text)}</p>")
        elif isinstance(b, Bullets):
            body.append(
                "<ul>\n" + "\n".join(f"<li>{_html_inline(i)}</li>" for i in b.items) + "\n</ul>"
            )
        else:
            rows = []
            if b.head is not None:
                rows.append(
                    "<thead><tr>"
                    + "".join(f"<th>{_html_inline(h)}</th>" for h in b.head)
                    + "</tr></thead>"
                )
            rows.append("<tbody>")
            for row in b.rows:
                cells = "".join(
                    f"<{'th' if b.head is None and i == 0 else 'td'}>{_html_inline(c)}"
                    f"</{'th' if b.head is None and i == 0 else 'td'}>"
                    for i, c in enumerate(row)
                )
                rows.append(f"<tr>{cells}</tr>")
            rows.append("</tbody>")
            body.append("<table>\n" + "\n".join(rows) + "\n</table>")
    head_title = html.escape(clean("".join(t for _, t in title)), quote=True)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{"zh-CN" if lang == "zh" else "en"}">\n<head>\n<meta charset="utf-8"/>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>\n'
        f"<title>{head_title}</title>\n<style>\n{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
