//! The narration's markdown (read by `model::markdown`) as Yew nodes.

use crate::model::markdown::{parse, Block, Span};
use yew::prelude::*;

/// Spans as Yew nodes.
fn spans(spans: &[Span]) -> Html {
    html! {
        <>{ for spans.iter().map(|s| match s {
            Span::Text(t) => html! { { t.clone() } },
            Span::Bold(t) => html! { <strong>{ t.clone() }</strong> },
            Span::Code(t) => html! { <code>{ t.clone() }</code> },
        }) }</>
    }
}

/// `text` as Yew nodes.
pub fn render(text: &str) -> Html {
    html! {
        <>{ for parse(text).iter().map(|b| match b {
            Block::Para(s) => html! { <p>{ spans(s) }</p> },
            Block::List(items) => html! { <ul>{ for items.iter().map(|i| html! { <li>{ spans(i) }</li> }) }</ul> },
            Block::Code(c) => html! { <pre><code>{ c.clone() }</code></pre> },
        }) }</>
    }
}
