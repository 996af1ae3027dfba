//! What the presenter's notes window is told of a step: its text rendered (the
//! narration and notes as HTML, their hard wraps gone), the question with its stated
//! answer and why (before the reveal: the window is the presenter's), the next step's
//! title, and the lesson's stated length for the timer. One JSON message, posted by
//! `ui::lesson::notes` each time a step opens, is revealed, or the window asks.

use crate::model::lesson::{stated, step_label, Place};
use crate::model::markdown::{inline_html, to_html};
use ddlscope_engine::lesson::{Lesson, Question, QuestionKind};

/// `15 min`, `1 h`, `90 s` as seconds; `None` when it reads otherwise.
pub fn duration_secs(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit())?;
    let (n, unit) = t.split_at(split);
    let n: u64 = n.parse().ok()?;
    let per = match unit.trim() {
        "s" | "sec" => 1,
        "min" | "mins" | "minutes" | "m" => 60,
        "h" | "hour" | "hours" => 3600,
        _ => return None,
    };
    Some(n * per)
}

/// The question as HTML: its prompt, then its choices or its unit.
fn question_html(q: &Question) -> String {
    let asked = match &q.kind {
        QuestionKind::Choice { choices, .. } => {
            let items: String = choices
                .iter()
                .enumerate()
                .map(|(i, c)| format!("<li>{} {}</li>", i + 1, inline_html(c)))
                .collect();
            format!("<ul class=\"choices\">{items}</ul>")
        }
        QuestionKind::Number { unit, .. } => format!("<p>A number, in {}.</p>", inline_html(unit)),
    };
    format!("{}{asked}", to_html(&q.prompt))
}

/// The message for step `place` of `lesson`; `revealed` is what the reveal showed
/// (empty before it).
pub fn message(lesson: &Lesson, place: &Place, revealed: &str) -> String {
    let step = &lesson.steps[place.step];
    let variant_answer = lesson
        .plan(place.step, place.variant, place.seed)
        .and_then(|p| p.answer.map(str::to_string));
    let (question, answer) = match &step.question {
        Some(q) => (
            question_html(q),
            format!(
                "<p><strong>Answer: {}</strong></p>{}",
                inline_html(&stated(q, variant_answer.as_deref())),
                to_html(&q.explain)
            ),
        ),
        None => (String::new(), String::new()),
    };
    serde_json::json!({
        "id": lesson.id,
        "lesson": lesson.title,
        "duration": lesson.duration,
        "duration_s": duration_secs(&lesson.duration),
        "label": step_label(place.step, lesson.steps.len()),
        "title": step.title,
        "narration": to_html(&step.narration),
        "notes": to_html(&step.notes),
        "question": question,
        "answer": answer,
        "revealed": revealed,
        "next": lesson.steps.get(place.step + 1).map(|s| s.title.clone()),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_lessons_write_them() {
        assert_eq!(duration_secs("15 min"), Some(900));
        assert_eq!(duration_secs("1 h"), Some(3600));
        assert_eq!(duration_secs("about an hour"), None);
    }

    #[test]
    fn a_step_with_a_question_carries_its_answer_and_the_next_title() {
        let lessons = crate::model::lesson::lessons();
        let lesson = lessons
            .iter()
            .find(|l| l.id == "drop-table-57-vs-80")
            .unwrap();
        let step = lesson
            .steps
            .iter()
            .position(|s| s.question.is_some())
            .unwrap();
        let place = Place {
            lesson: 0,
            step,
            variant: 0,
            seed: 0,
        };
        let m: serde_json::Value = serde_json::from_str(&message(lesson, &place, "")).unwrap();
        assert!(m["answer"]
            .as_str()
            .unwrap()
            .starts_with("<p><strong>Answer: "));
        assert!(m["question"].as_str().unwrap().starts_with("<p>"));
        assert_eq!(m["next"], lesson.steps[step + 1].title.as_str());
        assert_eq!(m["duration_s"], 720, "drop-table-57-vs-80 takes 12 min");
        // Outside code blocks, the file's line breaks are gone.
        let html = m["narration"].as_str().unwrap();
        let prose: String = html
            .split("<pre>")
            .enumerate()
            .map(|(i, part)| match i {
                0 => part,
                _ => part.split_once("</pre>").map_or("", |(_, after)| after),
            })
            .collect();
        assert!(lesson.steps[step].narration.trim().contains('\n'));
        assert!(!prose.contains('\n'), "{prose}");
    }
}
