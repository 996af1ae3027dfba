//! The open step's question run ahead on a copy (`host/reveal_ahead.rs`).

use super::*;

/// Asks for the question of step `step` of lesson `lesson` as `ask`.
fn reveal_step(h: &mut Host, lesson: &str, ask: u32, step: u32) {
    h.handle(
        Command::Reveal {
            ask,
            lesson: lesson.into(),
            source: None,
            step,
        },
        &|| 0.0,
    );
}

/// Opens step `step` of `lesson` on a fresh host and runs frames until it has opened
/// and its question's copy has its answer (or is gone).
fn opened_with_answer_ahead(lesson: &str, step: u32) -> Host {
    opened_variant_with_answer_ahead(lesson, step, 0)
}

/// [`opened_with_answer_ahead`] with the quiz variant `variant` drawn.
fn opened_variant_with_answer_ahead(lesson: &str, step: u32, variant: u32) -> Host {
    let mut h = Host::new();
    open_lesson_pick(&mut h, lesson, (1, 5), step, variant);
    answer_to(&mut h, 400, 1).expect("the step opens");
    frames_until(&mut h, 400, |_, _| false);
    h
}

#[test]
fn a_question_answered_ahead_is_revealed_at_once_as_the_usual_run_would_show_it() {
    answered_ahead_as_the_usual_run("mdl-queue", 2, 0);
}

#[test]
fn a_quiz_variant_drawn_is_answered_ahead_as_the_usual_run_would_show_it() {
    // which-statement's steps draw one of several variants.
    answered_ahead_as_the_usual_run("which-statement", 1, 2);
}

/// Step `step` of `lesson`, variant `variant`: its question's copy answers in the
/// first frame after Reveal what the usual run shows, and leaves the same server.
fn answered_ahead_as_the_usual_run(lesson: &str, step: u32, variant: u32) {
    let mut h = opened_variant_with_answer_ahead(lesson, step, variant);
    let copy = h
        .reveal_ahead
        .as_ref()
        .expect("the step's question runs ahead");
    assert!(
        copy.answer().is_some(),
        "in the frames' spare time, to its answer"
    );
    // The usual way: the same step and frames, the copy dropped.
    let mut usual = Host::new();
    open_lesson_pick(&mut usual, lesson, (1, 5), step, variant);
    answer_to(&mut usual, 400, 1).expect("the step opens");
    usual.reveal_ahead = None;
    frames_until(&mut usual, 400, |_, _| false);
    reveal_step(&mut usual, lesson, 2, step);
    let Some(Reply::Revealed { seen: want, .. }) = answer_to(&mut usual, 4000, 2) else {
        panic!("the question's moment is reached");
    };

    reveal_step(&mut h, lesson, 2, step);
    let (f, _) = h.frame(16.0, 0.0, &|| 0.0).expect("a frame");
    let seen = f.replies.iter().find_map(|r| match r {
        Reply::Revealed { ask: 2, seen } => Some(seen.clone()),
        _ => None,
    });
    assert_eq!(
        seen,
        Some(want.clone()),
        "answered in the first frame, alike"
    );
    assert!(want.is_ok(), "{want:?}");
    assert!(h.reveal_ahead.is_none());
    assert!(f.log.is_some(), "the page reads the console's log again");
    let (a, b) = (h.engines().unwrap().main(), usual.engines().unwrap().main());
    assert_eq!(a.generation(), 5);
    assert_eq!(a.sim().trace_hash(), b.sim().trace_hash());
    assert_eq!(a.log(), b.log(), "the same console log");
    assert_eq!(
        h.lesson_sessions.borrow().clone(),
        usual.lesson_sessions.borrow().clone()
    );
    assert_eq!(h.clock, usual.clock);
    assert_eq!(a.clock(), b.clock());
    assert_eq!(
        h.engines().unwrap().pause_at,
        usual.engines().unwrap().pause_at
    );
}

#[test]
fn an_input_to_the_step_drops_its_question_run_ahead_and_reveal_runs_the_usual_way() {
    let mut h = opened_with_answer_ahead("mdl-queue", 2);
    assert!(h.reveal_ahead.is_some());
    // Looking and the clock keep it.
    view(&mut h, 400, 1.0);
    h.handle(
        Command::Clock {
            playing: false,
            speed: 1.0,
        },
        &|| 0.0,
    );
    assert!(h.reveal_ahead.is_some(), "a view and a pause keep the copy");
    let submit = Command::Submit {
        ask: 7,
        session: 0,
        sql: "SELECT 1".into(),
    };
    h.handle(submit.clone(), &|| 0.0);
    assert!(h.reveal_ahead.is_none(), "a statement drops it");
    // The same, the copy dropped by hand before the statement.
    let mut usual = Host::new();
    open_lesson_step(&mut usual, "mdl-queue", 1, 2, 5);
    answer_to(&mut usual, 400, 1).expect("the step opens");
    usual.reveal_ahead = None;
    frames_until(&mut usual, 400, |_, _| false);
    view(&mut usual, 400, 1.0);
    usual.handle(
        Command::Clock {
            playing: false,
            speed: 1.0,
        },
        &|| 0.0,
    );
    usual.handle(submit, &|| 0.0);
    reveal_step(&mut usual, "mdl-queue", 2, 2);
    let Some(Reply::Revealed { seen: want, .. }) = answer_to(&mut usual, 4000, 2) else {
        panic!("the question's moment is reached");
    };
    reveal_step(&mut h, "mdl-queue", 2, 2);
    let Some(Reply::Revealed { seen, .. }) = answer_to(&mut h, 4000, 2) else {
        panic!("the question's moment is reached");
    };
    assert!(seen.is_ok(), "{seen:?}");
    assert_eq!(seen, want);
    assert_eq!(
        h.engines().unwrap().main().sim().trace_hash(),
        usual.engines().unwrap().main().sim().trace_hash()
    );
}

#[test]
fn a_question_on_its_way_ahead_is_taken_when_it_is_further_than_the_step() {
    let pause = Command::Clock {
        playing: false,
        speed: 1.0,
    };
    let mut h = Host::new();
    open_lesson_step(&mut h, "mdl-queue", 1, 2, 5);
    answer_to(&mut h, 400, 1).expect("the step opens");
    h.handle(pause.clone(), &|| 0.0);
    let now = h.engines().unwrap().main().sim().now();
    // The copy run by hand, a short slice at a time, until it is on its last run
    // and past the step's moment.
    let t = std::cell::Cell::new(0.0);
    let tick = || {
        t.set(t.get() + 1.0);
        t.get()
    };
    let copy = h
        .reveal_ahead
        .as_mut()
        .expect("the step's question runs ahead");
    assert!(!copy.ahead_of(now), "not cloned yet");
    let open = h.engines.as_ref().expect("the open step");
    for _ in 0..100 {
        assert!(copy.copy(open, &h.lesson_sessions.borrow()), "of use");
    }
    assert!(copy.engines.is_some(), "cloned a second on");
    let mut n = 0;
    while !copy.ahead_of(now) {
        copy.work(2.0, &tick);
        n += 1;
        assert!(n < 1_000_000, "the copy gets there");
    }
    assert!(copy.answer().is_none(), "not measured yet: on its way");

    let mut usual = Host::new();
    open_lesson_step(&mut usual, "mdl-queue", 1, 2, 5);
    answer_to(&mut usual, 400, 1).expect("the step opens");
    usual.reveal_ahead = None;
    usual.handle(pause, &|| 0.0);
    reveal_step(&mut usual, "mdl-queue", 2, 2);
    let Some(Reply::Revealed { seen: want, .. }) = answer_to(&mut usual, 4000, 2) else {
        panic!("the question's moment is reached");
    };
    reveal_step(&mut h, "mdl-queue", 2, 2);
    assert!(h.reveal_ahead.is_none(), "taken");
    let Some(Reply::Revealed { seen, .. }) = answer_to(&mut h, 4000, 2) else {
        panic!("the question's moment is reached");
    };
    assert!(want.is_ok(), "{want:?}");
    assert_eq!(seen, want);
    let (a, b) = (h.engines().unwrap().main(), usual.engines().unwrap().main());
    assert_eq!(a.sim().trace_hash(), b.sim().trace_hash());
    assert_eq!(a.log(), b.log(), "the same console log");
}

#[test]
fn a_36_gb_step_is_copied_for_its_question_beside_its_next_step_opened_ahead() {
    // compressed-partitions' second step: one engine with a 36 GB pool, its next
    // step (the same pool) opened ahead too.
    let mut h = Host::new();
    open_lesson_step(&mut h, "compressed-partitions", 1, 1, 5);
    assert!(h.prefetch.is_some(), "the next step is opened ahead");
    let copy = h
        .reveal_ahead
        .as_ref()
        .expect("the question's copy comes too");
    assert!(copy.engines.is_none(), "cloned once the step settles");
    let Some(Reply::LessonOpened { result, .. }) = answer_to(&mut h, 400, 1) else {
        panic!("the step opens");
    };
    assert!(result.is_ok(), "{result:?}");
    let cloned = |h: &Host| h.reveal_ahead.as_ref().is_some_and(|r| r.engines.is_some());
    assert!(!cloned(&h), "not in the frame the step settled");
    frames_until(&mut h, 30, |_, _| false);
    assert!(!cloned(&h), "nor in the next half second");
    frames_until(&mut h, 40, |_, _| false);
    assert!(cloned(&h), "cloned a second on");
    assert!(h.prefetch.is_some(), "beside the next step");
    let answer = h.reveal_ahead.as_ref().and_then(RevealAhead::answer);
    assert!(answer.is_some(), "answered in the frames' spare time");
    reveal_step(&mut h, "compressed-partitions", 2, 1);
    let (f, _) = h.frame(16.0, 0.0, &|| 0.0).expect("a frame");
    let seen = f.replies.iter().find_map(|r| match r {
        Reply::Revealed { ask: 2, seen } => Some(seen.clone()),
        _ => None,
    });
    assert_eq!(seen, Some(Ok(answer.unwrap())), "at once, the copy's");
    // The question's moment, as the step's pause (30 s).
    let e = h.engines().unwrap();
    assert_eq!(e.main().sim().now(), ddlscope_engine::Tick::from_secs(30));
    assert_eq!(e.main().generation(), 5);
}
