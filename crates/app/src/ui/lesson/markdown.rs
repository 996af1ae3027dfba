//! The narration's markdown, the little of it lessons use: paragraphs, fenced code,
//! `- ` lists, **bold** and `code` inline. Text stays text (no HTML passes through).

use yew::prelude::*;

/// `text` as Yew nodes.
pub fn render(text: &str) -> Html {
    let mut blocks: Vec<Html> = Vec::new();
    let mut para: Vec<String> = Vec::new();
    let mut list: Vec<String> = Vec::new();
    let mut code: Option<Vec<&str>> = None;
    let flush = |blocks: &mut Vec<Html>, para: &mut Vec<String>, list: &mut Vec<String>| {
        if !para.is_empty() {
            blocks.push(html! { <p>{ inline(&para.join(" ")) }</p> });
            para.clear();
        }
        if !list.is_empty() {
            blocks.push(
                html! { <ul>{ for list.iter().map(|i| html! { <li>{ inline(i) }</li> }) }</ul> },
            );
            list.clear();
        }
    };
    for line in text.lines() {
        if let Some(c) = code.as_mut() {
            if line.trim_start().starts_with("```") {
                let body = c.join("\n");
                blocks.push(html! { <pre><code>{ body }</code></pre> });
                code = None;
            } else {
                c.push(line);
            }
            continue;
        }
        let t = line.trim();
        if t.starts_with("```") {
            flush(&mut blocks, &mut para, &mut list);
            code = Some(Vec::new());
        } else if t.is_empty() {
            flush(&mut blocks, &mut para, &mut list);
        } else if let Some(item) = t.strip_prefix("- ") {
            if !para.is_empty() {
                flush(&mut blocks, &mut para, &mut list);
            }
            list.push(item.to_string());
        } else if !list.is_empty() && line.starts_with("  ") {
            // A list item's continuation line.
            if let Some(last) = list.last_mut() {
                last.push(' ');
                last.push_str(t);
            }
        } else {
            if !list.is_empty() {
                flush(&mut blocks, &mut para, &mut list);
            }
            para.push(t.to_string());
        }
    }
    if let Some(c) = code {
        blocks.push(html! { <pre><code>{ c.join("\n") }</code></pre> });
    }
    flush(&mut blocks, &mut para, &mut list);
    html! { <>{ for blocks }</> }
}

/// **bold** and `code` inside a line.
fn inline(text: &str) -> Html {
    let mut out: Vec<Html> = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let next = [rest.find("**"), rest.find('`')]
            .into_iter()
            .flatten()
            .min();
        let Some(i) = next else {
            out.push(html! { { rest.to_string() } });
            break;
        };
        out.push(html! { { rest[..i].to_string() } });
        let (mark, tag_code) = if rest[i..].starts_with("**") {
            ("**", false)
        } else {
            ("`", true)
        };
        let after = &rest[i + mark.len()..];
        match after.find(mark) {
            Some(j) => {
                let inner = after[..j].to_string();
                out.push(if tag_code {
                    html! { <code>{ inner }</code> }
                } else {
                    html! { <strong>{ inner }</strong> }
                });
                rest = &after[j + mark.len()..];
            }
            None => {
                out.push(html! { { rest[i..].to_string() } });
                break;
            }
        }
    }
    html! { <>{ for out }</> }
}
