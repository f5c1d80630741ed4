//! Self-contained HTML pages for reports (`overlord report --html`, the mail-out
//! attachment, `overlord serve`): one file, no scripts, styles inline, readable on
//! a phone (it follows the screen's width and its light or dark scheme).
//!
//! A rule system makes the sections; this module writes the page around them: the
//! title, a bar of links to the sections, and each section under its heading. Text
//! blocks keep the text report's lines, with every `[id]` that names something on
//! the page made a link to it.

use std::collections::BTreeSet;
use std::fmt::Write;

/// `s` safe inside HTML (and SVG) text and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + s.len() / 8);
    escape_into(&mut o, s);
    o
}

fn escape_into(o: &mut String, s: &str) {
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(ch),
        }
    }
}

/// The HTML id of the anchor of the thing whose id is `id` (a unit, a place): kept
/// apart from the ids of the page's sections.
pub fn anchor(id: &str) -> String {
    let mut o = String::from("x-");
    for ch in id.chars() {
        o.push(if ch.is_ascii_alphanumeric() || ch == '-' || ch == '_' { ch } else { '_' });
    }
    o
}

/// One section of a page.
#[derive(Debug, Clone, Default)]
pub struct Section {
    /// Its HTML id (a link target of the bar).
    pub id: String,
    /// Its heading.
    pub heading: String,
    /// Its content, HTML.
    pub body: String,
}

/// A page: a title and sections, in order.
#[derive(Debug, Clone, Default)]
pub struct Page {
    /// The page's title and first heading.
    pub title: String,
    /// Its sections.
    pub sections: Vec<Section>,
}

const STYLE: &str = "\
:root{color-scheme:light dark;--bg:#fdfcf8;--fg:#1d1d1b;--soft:#f1efe7;--line:#d8d4c8;--link:#1f5fa8}\
@media (prefers-color-scheme:dark){:root{--bg:#16181d;--fg:#e6e4dc;--soft:#22252c;--line:#3a3e47;--link:#8cb8f0}}\
*{box-sizing:border-box}\
body{margin:0 auto;max-width:64rem;padding:0 .75rem 3rem;background:var(--bg);color:var(--fg);\
font:16px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}\
h1{font-size:1.3rem;margin:.8rem 0 .4rem}\
h2{font-size:1.1rem;margin:1.6rem 0 .4rem;padding-top:.4rem;border-top:1px solid var(--line)}\
h3{font-size:1rem;margin:1rem 0 .2rem}\
nav{position:sticky;top:0;background:var(--bg);padding:.4rem 0;border-bottom:1px solid var(--line);\
display:flex;flex-wrap:wrap;gap:.3rem .9rem;font-size:.95rem;z-index:1}\
a{color:var(--link)}\
pre{margin:.2rem 0;padding:.5rem .6rem;background:var(--soft);border-radius:4px;white-space:pre-wrap;\
overflow-wrap:anywhere;font:.88rem/1.4 ui-monospace,'DejaVu Sans Mono',Menlo,monospace}\
article{scroll-margin-top:3rem}\
section{scroll-margin-top:2.5rem}\
.map{overflow:auto;max-height:80vh;border:1px solid var(--line);border-radius:4px}\
.map svg{display:block;max-width:100%;height:auto}\
";

impl Page {
    /// The whole page.
    pub fn render(&self) -> String {
        let size: usize = self.sections.iter().map(|s| s.body.len() + 200).sum();
        let mut o = String::with_capacity(size + STYLE.len() + 1000);
        o.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        o.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
        let title = escape(&self.title);
        let _ = writeln!(o, "<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>");
        let _ = writeln!(o, "<h1>{title}</h1>");
        if self.sections.len() > 1 {
            o.push_str("<nav>");
            for s in &self.sections {
                let _ = write!(o, "<a href=\"#{}\">{}</a>", escape(&s.id), escape(&s.heading));
            }
            o.push_str("</nav>\n");
        }
        for s in &self.sections {
            let _ = writeln!(o, "<section id=\"{}\">\n<h2>{}</h2>", escape(&s.id), escape(&s.heading));
            o.push_str(&s.body);
            if !s.body.ends_with('\n') {
                o.push('\n');
            }
            o.push_str("</section>\n");
        }
        o.push_str("</body>\n</html>\n");
        o
    }
}

/// `text` as a block of preformatted lines, escaped, each `[id]` whose id is in
/// `anchors` made a link to its anchor ([`anchor`]).
pub fn text_block(text: &str, anchors: &BTreeSet<String>) -> String {
    let mut o = String::with_capacity(text.len() + text.len() / 4 + 16);
    o.push_str("<pre>");
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let (before, from) = rest.split_at(open);
        escape_into(&mut o, before);
        let id = from[1..].find(']').map(|close| &from[1..1 + close]);
        match id {
            Some(id) if anchors.contains(id) => {
                let _ = write!(o, "[<a href=\"#{}\">{}</a>]", anchor(id), escape(id));
                rest = &from[id.len() + 2..];
            }
            _ => {
                o.push('[');
                rest = &from[1..];
            }
        }
    }
    escape_into(&mut o, rest);
    o.push_str("</pre>\n");
    o
}

/// `<article id=…>` around an entry of a section (a unit, a place, a battle), with
/// its heading.
pub fn article(anchor_id: &str, heading: &str, body: &str) -> String {
    format!("<article id=\"{}\">\n<h3>{}</h3>\n{body}</article>\n", escape(anchor_id), escape(heading))
}

/// A page for a rule system that renders no HTML of its own: the text report as it
/// is, under the map. Its first line is the title.
pub fn text_page(text: &str, map: Option<&str>) -> String {
    let title = text.lines().next().unwrap_or("Report").to_string();
    let mut sections = Vec::new();
    if let Some(svg) = map {
        sections.push(Section { id: "map".into(), heading: "Map".into(), body: map_block(svg) });
    }
    sections.push(Section { id: "report".into(), heading: "Report".into(), body: text_block(text, &BTreeSet::new()) });
    Page { title, sections }.render()
}

/// The map, inline, in a box that scrolls when it is wider than the screen.
pub fn map_block(svg: &str) -> String {
    format!("<div class=\"map\">\n{}</div>\n", svg.trim_start_matches("<?xml version=\"1.0\"?>\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_known_ids_become_links() {
        let anchors: BTreeSet<String> = ["U1".to_string(), "L2".to_string()].into();
        let out = text_block("Ann <the> [U1] at Keep [L2] & [U9], [x\n[", &anchors);
        assert_eq!(
            out,
            "<pre>Ann &lt;the&gt; [<a href=\"#x-U1\">U1</a>] at Keep [<a href=\"#x-L2\">L2</a>] &amp; [U9], [x\n[</pre>\n"
        );
    }

    #[test]
    fn a_name_cannot_break_out_of_the_page() {
        let p = Page {
            title: "<script>alert(1)</script>".into(),
            sections: vec![Section { id: "a\"b".into(), heading: "<b>".into(), body: String::new() }],
        }
        .render();
        assert!(!p.contains("<script>"), "{p}");
        assert!(p.contains("id=\"a&quot;b\"") && p.contains("<h2>&lt;b&gt;</h2>"), "{p}");
        assert!(!anchor("a\" onload=\"x").contains('"'));
    }

    #[test]
    fn a_page_is_one_self_contained_document_for_small_screens() {
        let p = text_page("tiny Report for Turn 1\nline", Some("<svg></svg>\n"));
        assert!(p.starts_with("<!DOCTYPE html>\n") && p.ends_with("</html>\n"));
        assert!(p.contains("name=\"viewport\" content=\"width=device-width"));
        assert!(p.contains("<title>tiny Report for Turn 1</title>"));
        assert!(p.contains("<div class=\"map\">\n<svg></svg>\n</div>"));
        for external in ["src=", "<link", "http://", "https://", "<script"] {
            assert!(!p.contains(external), "{external}");
        }
    }
}
