//! The lessons' markdown, the little of it they use: paragraphs (their lines joined:
//! a lesson file's hard wraps are not the reader's), fenced code, `- ` lists,
//! **bold** and `code` inline. Read here once into blocks, which the player draws
//! as Yew nodes (`ui::lesson::markdown`) and the notes window gets as HTML
//! ([`to_html`]). Text stays text: no HTML in a lesson passes through.

/// A run of text inside a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// `**bold**`.
    Bold(String),
    /// `` `code` ``.
    Code(String),
}

/// A block of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A paragraph, its lines joined with spaces.
    Para(Vec<Span>),
    /// A `- ` list, an item per entry.
    List(Vec<Vec<Span>>),
    /// A fenced code block, its lines as written.
    Code(String),
}

/// The blocks being gathered: the paragraph's lines and the list's items so far.
#[derive(Default)]
struct Gather {
    blocks: Vec<Block>,
    para: Vec<String>,
    list: Vec<String>,
}

impl Gather {
    /// Ends the paragraph and the list being gathered.
    fn flush(&mut self) {
        if !self.para.is_empty() {
            self.blocks.push(Block::Para(inline(&self.para.join(" "))));
            self.para.clear();
        }
        if !self.list.is_empty() {
            let items = self.list.iter().map(|i| inline(i)).collect();
            self.blocks.push(Block::List(items));
            self.list.clear();
        }
    }

    /// One line outside a code block.
    fn line(&mut self, line: &str) {
        let t = line.trim();
        if t.is_empty() {
            self.flush();
        } else if let Some(item) = t.strip_prefix("- ") {
            if !self.para.is_empty() {
                self.flush();
            }
            self.list.push(item.to_string());
        } else if !self.list.is_empty() && line.starts_with("  ") {
            // A list item's continuation line.
            if let Some(last) = self.list.last_mut() {
                last.push(' ');
                last.push_str(t);
            }
        } else {
            if !self.list.is_empty() {
                self.flush();
            }
            self.para.push(t.to_string());
        }
    }
}

/// `text` as blocks.
pub fn parse(text: &str) -> Vec<Block> {
    let mut g = Gather::default();
    let mut code: Option<Vec<&str>> = None;
    for line in text.lines() {
        if let Some(c) = code.as_mut() {
            if line.trim_start().starts_with("```") {
                g.blocks.push(Block::Code(c.join("\n")));
                code = None;
            } else {
                c.push(line);
            }
        } else if line.trim().starts_with("```") {
            g.flush();
            code = Some(Vec::new());
        } else {
            g.line(line);
        }
    }
    if let Some(c) = code {
        g.blocks.push(Block::Code(c.join("\n")));
    }
    g.flush();
    g.blocks
}

/// **bold** and `code` inside a line; an unclosed mark stays as text.
pub fn inline(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let next = [rest.find("**"), rest.find('`')]
            .into_iter()
            .flatten()
            .min();
        let Some(i) = next else {
            out.push(Span::Text(rest.to_string()));
            break;
        };
        if i > 0 {
            out.push(Span::Text(rest[..i].to_string()));
        }
        let mark = if rest[i..].starts_with("**") {
            "**"
        } else {
            "`"
        };
        let after = &rest[i + mark.len()..];
        let Some(j) = after.find(mark) else {
            out.push(Span::Text(rest[i..].to_string()));
            break;
        };
        let inner = after[..j].to_string();
        out.push(if mark == "`" {
            Span::Code(inner)
        } else {
            Span::Bold(inner)
        });
        rest = &after[j + mark.len()..];
    }
    out
}

/// `s` with `&`, `<`, `>` and `"` escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Spans as HTML.
fn spans_html(spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| match s {
            Span::Text(t) => escape(t),
            Span::Bold(t) => format!("<strong>{}</strong>", escape(t)),
            Span::Code(t) => format!("<code>{}</code>", escape(t)),
        })
        .collect()
}

/// One line's **bold** and `code` as HTML, with no block around it.
pub fn inline_html(text: &str) -> String {
    spans_html(&inline(text))
}

/// `text` as HTML (every piece of its text escaped).
pub fn to_html(text: &str) -> String {
    parse(text)
        .iter()
        .map(|b| match b {
            Block::Para(s) => format!("<p>{}</p>", spans_html(s)),
            Block::List(items) => {
                let items: String = items
                    .iter()
                    .map(|i| format!("<li>{}</li>", spans_html(i)))
                    .collect();
                format!("<ul>{items}</ul>")
            }
            Block::Code(c) => format!("<pre><code>{}</code></pre>", escape(c)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_wrapped_lines_join_into_one_paragraph() {
        let text = "At 10 s we DROP\nTABLE t1, **holding\nthe mutex**.\n\n- one\n  more\n- two\n";
        assert_eq!(
            to_html(text),
            "<p>At 10 s we DROP TABLE t1, <strong>holding the mutex</strong>.</p>\
             <ul><li>one more</li><li>two</li></ul>"
        );
    }

    #[test]
    fn code_stays_as_written_and_html_stays_text() {
        let text = "Run `<b>`:\n```\nSELECT 1;\n  -- two\n```\nan **open mark";
        assert_eq!(
            to_html(text),
            "<p>Run <code>&lt;b&gt;</code>:</p><pre><code>SELECT 1;\n  -- two</code></pre>\
             <p>an **open mark</p>"
        );
    }
}
