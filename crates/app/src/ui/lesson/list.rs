//! The Lessons button and the list it opens, with the part for one's own lesson.

use super::own::OwnLesson;
use crate::model::lesson::{MenuEntry, Own};
use crate::ui::hooks::focus_soon;
use yew::prelude::*;

/// The properties of [`LessonList`].
#[derive(Properties, Clone, PartialEq)]
pub struct LessonListProps {
    /// The menu: the built-in lessons, then the reader's own.
    pub entries: Vec<MenuEntry>,
    /// Whether the list is open.
    pub open: bool,
    /// Opens or closes the list.
    pub on_toggle: Callback<MouseEvent>,
    /// Opens lesson `i` at its first step.
    pub on_open: Callback<usize>,
    /// Opens a lesson the reader brought (a file, a URL, pasted text).
    pub on_read: Callback<Own>,
}

/// The Lessons button, and the list of lessons when it is open.
#[function_component(LessonList)]
pub fn lesson_list(props: &LessonListProps) -> Html {
    let list = props.open.then(|| {
        html! {
            <div class="lesson-list" data-testid="lessons" role="dialog" aria-label="Lessons">
                <h2>{ "Lessons" }</h2>
                <ul>
                { for props.entries.iter().enumerate().map(|(i, l)| {
                    let on_open = props.on_open.clone();
                    let onclick = Callback::from(move |_: MouseEvent| on_open.emit(i));
                    html! {
                        <li>
                            <button type="button" data-testid="lesson-open" data-lesson={l.id.clone()} {onclick}>
                                <strong>{ l.title.clone() }</strong>
                                <small>{ format!("{} · {}", l.id, l.about) }</small>
                            </button>
                        </li>
                    }
                }) }
                </ul>
                <OwnLesson on_open={props.on_read.clone()} />
            </div>
        }
    });
    let on_toggle = {
        let (open, toggle) = (props.open, props.on_toggle.clone());
        Callback::from(move |e: MouseEvent| {
            // The focus moves into the list it opens.
            if !open {
                focus_soon("[data-testid=lessons] button");
            }
            toggle.emit(e);
        })
    };
    html! {
        <>
            <button type="button" class="lesson-toggle" data-testid="lessons-toggle" data-popup="" title="Lessons (L)"
                onclick={on_toggle} aria-expanded={if props.open { "true" } else { "false" }}>{ "Lessons" }</button>
            // One node, open or not: `for` would add none when closed, and Yew, matching
            // children from the end, would make the button again (losing its focus).
            { list.unwrap_or_default() }
        </>
    }
}
