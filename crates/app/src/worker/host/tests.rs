use super::*;
use crate::model::knobs::Knobs;
use crate::model::snapshot::Snapshot;

fn open(h: &mut Host, scenario: &str, generation: u32) {
    h.handle(
        Command::Open {
            scenario: scenario.into(),
            own: None,
            profile: "mysql-5.7".into(),
            knobs: Knobs::default(),
            generation,
        },
        &|| 0.0,
    );
}

/// Describes pane 0's map canvas: `width` device pixels at `dpr`, light.
fn view(h: &mut Host, width: u32, dpr: f64) {
    h.handle(
        Command::View {
            pane: 0,
            width,
            dpr,
            dark: false,
        },
        &|| 0.0,
    );
}

/// Runs timer frames of 16 ms (an unbounded budget: the test's clock stands still)
/// until `want` says a frame is the one, at most `n` frames.
fn frames_until(
    h: &mut Host,
    n: usize,
    mut want: impl FnMut(&Frame, &[Vec<u8>]) -> bool,
) -> Option<Frame> {
    for i in 0..n {
        if let Some((f, px)) = h.frame(16.0, i as f64 * 16.0, &|| 0.0) {
            if want(&f, &px) {
                return Some(f);
            }
        }
    }
    None
}

fn snapshot(f: &Frame) -> Option<&Snapshot> {
    f.panes.first()?.snapshot.as_ref()
}

#[test]
fn the_map_comes_as_rows_beside_the_frame() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    view(&mut h, 400, 1.0);
    // The height is the worker's: the map's layout for the pool's instances.
    let f = frames_until(&mut h, 50, |f, px| {
        f.panes[0].map.as_ref().is_some_and(|m| {
            assert_eq!(px[0].len(), m.byte_len(), "the bytes are the regions'");
            m.regions == [(0, m.height)]
        })
    })
    .expect("a full paint");
    let m = f.panes[0].map.as_ref().expect("patch");
    assert_eq!(m.infos.len(), usize::from(f.panes[0].instances));
    let css = ddlscope_map::layout::css_height(f.panes[0].instances);
    assert_eq!((m.width, m.height), (400, css.round() as u32));
    // A wider, sharper view: painted whole again, at its own size.
    h.handle(Command::Drawn, &|| 0.0);
    view(&mut h, 800, 2.0);
    let f = frames_until(&mut h, 50, |f, _| {
        f.panes[0]
            .map
            .as_ref()
            .is_some_and(|m| m.width == 800 && m.regions == [(0, m.height)])
    })
    .expect("a full paint for the new view");
    let m = f.panes[0].map.as_ref().expect("patch");
    assert_eq!(m.height, (css * 2.0).round() as u32);
    // Two patches not drawn: the worker paints no more until the page says so.
    let more = frames_until(&mut h, 5, |f, _| f.panes[0].map.is_some());
    assert!(more.is_some(), "one more may be in flight");
    assert!(frames_until(&mut h, 5, |f, _| f.panes[0].map.is_some()).is_none());
    h.handle(Command::Drawn, &|| 0.0);
    assert!(frames_until(&mut h, 5, |f, _| f.panes[0].map.is_some()).is_some());
}

#[test]
fn console_asks_are_answered_in_the_next_frame() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    frames_until(&mut h, 200, |f, _| !f.busy).expect("the pool warms");
    h.handle(Command::Connect { ask: 5 }, &|| 0.0);
    h.handle(
        Command::Submit {
            ask: 6,
            session: 0,
            sql: "SELEC 1".into(),
        },
        &|| 0.0,
    );
    h.handle(
        Command::Submit {
            ask: 7,
            session: 0,
            sql: "SELECT * FROM t1 WHERE id = 1".into(),
        },
        &|| 0.0,
    );
    let f = frames_until(&mut h, 1, |_, _| true).expect("a frame");
    let session = match &f.replies[0] {
        Reply::Connected { ask: 5, session } => *session,
        other => panic!("{other:?}"),
    };
    assert!(session > 0);
    match &f.replies[1] {
        Reply::Submitted { ask: 6, result } => {
            let e = result.clone().expect_err("a syntax error");
            assert!(e.starts_with("ERROR 1064 (42000)"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        f.replies[2],
        Reply::Submitted {
            ask: 7,
            result: Ok(1)
        }
    );
    let ran = |f: &Frame| {
        f.log.as_ref().is_some_and(|log| {
            log.iter()
                .any(|e| e.sql.starts_with("SELECT * FROM t1") && !e.error)
        })
    };
    // A point read finishes within a frame or a few.
    let done = ran(&f)
        .then_some(())
        .or_else(|| frames_until(&mut h, 400, |f, _| ran(f)).map(|_| ()));
    assert!(
        done.is_some(),
        "the statement ran and its result is in the log"
    );
}

#[test]
fn a_refused_setting_keeps_the_running_server_and_says_so() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    h.handle(
        Command::Open {
            scenario: "no-such-scenario".into(),
            own: None,
            profile: "mysql-5.7".into(),
            knobs: Knobs::default(),
            generation: 2,
        },
        &|| 0.0,
    );
    let f = frames_until(&mut h, 1, |_, _| true).expect("a frame");
    match &f.replies[..] {
        [Reply::RestartFailed {
            scenario, error, ..
        }] => {
            assert_eq!(scenario, "drop-table-demo");
            assert!(error.contains("no-such-scenario"), "{error}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(f.generation, 2, "the running server takes the new number");
    assert_eq!(
        h.engines().map(|e| e.main().scenario().to_string()),
        Some("drop-table-demo".to_string())
    );
}

#[test]
fn seek_and_step_move_the_clock_and_pause() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    h.handle(
        Command::Clock {
            playing: true,
            speed: 10.0,
        },
        &|| 0.0,
    );
    let at = |f: &Frame| snapshot(f).map(|s| s.now);
    frames_until(&mut h, 400, |f, _| {
        at(f).is_some_and(|t| t >= Tick::from_secs(2))
    })
    .expect("plays at 10×");
    h.handle(Command::Seek(Tick::from_secs(1)), &|| 0.0);
    let f = frames_until(&mut h, 50, |f, _| snapshot(f).is_some()).expect("a report");
    assert!(
        at(&f).is_some_and(|t| t < Tick::from_secs(2)),
        "{:?}",
        at(&f)
    );
    h.handle(Command::Step(true), &|| 0.0);
    let before = h.engines().map(|e| e.main().sim().now());
    frames_until(&mut h, 20, |_, _| false);
    assert_eq!(
        h.engines().map(|e| e.main().sim().now()),
        before,
        "a step pauses"
    );
}

#[test]
fn go_to_runs_past_the_horizon_where_seek_stops_at_it() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    h.handle(
        Command::Clock {
            playing: false,
            speed: 1.0,
        },
        &|| 0.0,
    );
    frames_until(&mut h, 400, |f, _| !f.busy).expect("the pool warms");
    let at = |h: &Host| h.engines().map_or(Tick::ZERO, |e| e.main().sim().now());
    let start = at(&h);
    let later = start + Tick::from_secs(3);
    h.handle(Command::Seek(later), &|| 0.0);
    frames_until(&mut h, 50, |f, _| !f.busy).expect("settles");
    assert_eq!(at(&h), start, "nothing run past it: the scrubber's end");
    // An embedding page's seek: the frames run there, paused.
    h.handle(Command::GoTo(later), &|| 0.0);
    frames_until(&mut h, 400, |f, _| {
        snapshot(f).is_some_and(|s| s.now == later) && !f.busy
    })
    .expect("run to 3 s later");
    assert_eq!(at(&h), later);
}

#[test]
fn compare_mode_adds_a_pane() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    h.handle(Command::Compare(Some("mysql-8.0.23".into())), &|| 0.0);
    let f = frames_until(&mut h, 3, |f, _| snapshot(f).is_some()).expect("a report");
    assert_eq!(f.panes.len(), 2);
    h.handle(Command::Compare(Some("no-such-engine".into())), &|| 0.0);
    let f = frames_until(&mut h, 3, |f, _| !f.replies.is_empty()).expect("refused");
    assert!(matches!(&f.replies[0], Reply::CompareFailed(e) if e.contains("no-such-engine")));
}

#[test]
fn the_first_map_comes_alone_and_the_panels_in_the_next_frame() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    view(&mut h, 400, 1.0);
    let f = frames_until(&mut h, 50, |f, _| f.panes[0].map.is_some()).expect("a first map");
    let pane = &f.panes[0];
    assert!(pane.latches.is_none() && pane.flush.is_none() && pane.charts.is_none());
    let next = frames_until(&mut h, 1, |_, _| true).expect("the next frame");
    let pane = &next.panes[0];
    assert!(pane.latches.is_some() && pane.flush.is_some() && pane.charts.is_some());
}

#[test]
fn the_panels_data_comes_while_the_clock_moves_and_stops_when_it_stops() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    let f = frames_until(&mut h, 400, |f, _| {
        f.panes[0].latches.is_some() && f.panes[0].flush.is_some()
    })
    .expect("latch lanes and flush lists");
    let lanes = f.panes[0].latches.as_ref().map_or(0, |v| v.lanes.len());
    assert!(lanes >= 3, "the global latches at least");
    frames_until(&mut h, 400, |f, _| {
        f.panes[0]
            .charts
            .as_ref()
            .is_some_and(|c| !c.samples.is_empty())
    })
    .expect("a second's sample for the charts");
    h.handle(
        Command::Clock {
            playing: false,
            speed: 1.0,
        },
        &|| 0.0,
    );
    frames_until(&mut h, 5, |_, _| false);
    assert!(
        frames_until(&mut h, 50, |f, _| f.panes[0].latches.is_some()).is_none(),
        "paused: nothing new to draw"
    );
}

/// The replies of the frames run until one answers `ask`, at most `n` frames.
fn answer_to(h: &mut Host, n: usize, ask: u32) -> Option<Reply> {
    let f = frames_until(h, n, |f, _| f.replies.iter().any(|r| r.ask() == Some(ask)))?;
    f.replies.into_iter().find(|r| r.ask() == Some(ask))
}

#[test]
fn a_lesson_step_opens_and_reveals_as_on_the_page() {
    use crate::model::lesson::{lessons, open as open_step, reveal, Sessions};
    use std::cell::RefCell;
    use std::rc::Rc;
    let all = lessons();
    let mdl = all.iter().find(|l| l.id == "mdl-queue").unwrap();
    let plan = mdl.plan(2, 0, 0).unwrap();
    // The engines driven directly, settled at once.
    let ids = Rc::new(RefCell::new(Sessions::new()));
    let (mut page, _) = open_step(&plan, 4, ids.clone()).unwrap();
    page.settle();
    let seen = Rc::new(RefCell::new(None));
    let put = seen.clone();
    let q = mdl.steps[2].question.as_ref().unwrap();
    reveal(&mut page, ids.clone(), q, move |o| {
        *put.borrow_mut() = Some(o.to_string())
    });
    page.settle();
    // The worker, a frame at a time.
    let mut h = Host::new();
    h.handle(
        Command::OpenLesson {
            ask: 3,
            lesson: "mdl-queue".into(),
            source: None,
            step: 2,
            variant: 0,
            seed: 0,
            generation: 4,
        },
        &|| 0.0,
    );
    let Some(Reply::LessonOpened { result, .. }) = answer_to(&mut h, 400, 3) else {
        panic!("the step opens");
    };
    assert_eq!(result, Ok(ids.borrow().clone()), "the same sessions");
    assert_eq!(h.engines().unwrap().main().generation(), 4);
    h.handle(
        Command::Reveal {
            ask: 4,
            lesson: "mdl-queue".into(),
            source: None,
            step: 2,
        },
        &|| 0.0,
    );
    let Some(Reply::Revealed { seen: shown, .. }) = answer_to(&mut h, 4000, 4) else {
        panic!("the question's moment is reached");
    };
    assert_eq!(
        shown.ok(),
        seen.borrow().clone(),
        "what the page's thread saw"
    );
    assert_eq!(
        h.engines().unwrap().main().sim().trace_hash(),
        page.main().sim().trace_hash()
    );
}

#[test]
fn a_lesson_steps_compare_engine_stays_beside_the_main_one_for_its_question() {
    // instant-columns' first step compares two engines and asks for the throughput
    // one lost against the other. The page, hearing the step opened in compare mode,
    // asks for compare mode on the step's profile: with nested workers allowed, the
    // step's own compare engine stays (it once went to a worker of its own, and the
    // reveal said "no compare engine").
    let all = crate::model::lesson::lessons();
    let lesson = all.iter().find(|l| l.id == "instant-columns").unwrap();
    let compared = lesson.plan(0, 0, 0).unwrap().setup.compare.clone().unwrap();
    let mut h = Host::new();
    h.allow_partner();
    open_lesson_step(&mut h, "instant-columns", 1, 0, 1);
    let Some(Reply::LessonOpened { result, .. }) = answer_to(&mut h, 4000, 1) else {
        panic!("the step opens");
    };
    assert!(result.is_ok(), "{result:?}");
    h.handle(Command::Compare(Some(compared)), &|| 0.0);
    assert_eq!(
        h.partner_wanted(),
        None,
        "no worker for another compare engine"
    );
    assert!(
        h.reveal_ahead.is_some(),
        "asking for the compare engine running keeps the question's copy"
    );
    assert_eq!(h.engines().unwrap().panes.len(), 2);
    h.handle(
        Command::Reveal {
            ask: 2,
            lesson: "instant-columns".into(),
            source: None,
            step: 0,
        },
        &|| 0.0,
    );
    let Some(Reply::Revealed { seen, .. }) = answer_to(&mut h, 40_000, 2) else {
        panic!("the question's moment is reached");
    };
    let seen = seen.expect("measured on both engines");
    assert!(seen.trim_end_matches(" %").parse::<f64>().is_ok(), "{seen}");
}

#[test]
fn a_lesson_step_that_is_not_there_is_refused_with_why() {
    let mut h = Host::new();
    h.handle(
        Command::Reveal {
            ask: 1,
            lesson: "mdl-queue".into(),
            source: None,
            step: 2,
        },
        &|| 0.0,
    );
    for (ask, lesson, step) in [(2, "no-such-lesson", 0), (3, "mdl-queue", 999)] {
        h.handle(
            Command::OpenLesson {
                ask,
                lesson: lesson.into(),
                source: None,
                step,
                variant: 0,
                seed: 0,
                generation: 1,
            },
            &|| 0.0,
        );
    }
    let f = frames_until(&mut h, 2, |f, _| !f.replies.is_empty()).expect("answered");
    let texts: Vec<String> =
        f.replies
            .iter()
            .map(|r| match r {
                Reply::Revealed { seen: Err(e), .. }
                | Reply::LessonOpened { result: Err(e), .. } => e.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
    assert_eq!(
        texts,
        [
            "Not done: no server is running yet.",
            "there is no built-in lesson 'no-such-lesson' (to open your own, use Lessons → \
             Open a lesson file, drop its file on the page, or a link #lesson-url=…)",
            "lesson 'mdl-queue' has no step 1000"
        ]
    );
}

#[test]
fn the_clock_stops_at_a_lesson_steps_pause() {
    use crate::model::lesson::lessons;
    let all = lessons();
    // A step that plays on to a pause.
    let (id, step) = all
        .iter()
        .find_map(|l| {
            (0..l.steps.len()).find_map(|i| {
                let p = l.plan(i, 0, 0)?;
                p.pause_at
                    .is_some_and(|at| at > p.open_at)
                    .then(|| (l.id.clone(), i))
            })
        })
        .expect("a lesson step pauses");
    let mut h = Host::new();
    h.handle(
        Command::OpenLesson {
            ask: 1,
            lesson: id,
            source: None,
            step: step as u32,
            variant: 0,
            seed: 0,
            generation: 1,
        },
        &|| 0.0,
    );
    let f = frames_until(&mut h, 200_000, |f, _| {
        f.replies.contains(&Reply::PausedAtMark)
    })
    .expect("paused at the step's moment");
    let e = h.engines().unwrap();
    assert!(!e.main().clock().0, "the clock stopped");
    assert!(e.pause_at.is_none(), "spent");
    assert!(f.handled >= 1);
}

#[test]
fn the_worker_reports_its_frame_timings_four_times_a_second() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    // A clock that moves a millisecond each time it is read, from each frame's start.
    let t = std::cell::Cell::new(0.0);
    let clock = moving_clock(&t);
    let mut heard = Vec::new();
    for i in 0..200 {
        let now = i as f64 * 16.0;
        t.set(now);
        if let Some((f, _)) = h.frame(16.0, now, &clock) {
            heard.extend(f.timings.map(|x| (now, x)));
        }
    }
    assert!(heard.len() >= 10, "{} reports in 3.2 s", heard.len());
    for w in heard.windows(2) {
        assert!(w[1].0 - w[0].0 >= 250.0, "at most four a second");
    }
    let (_, last) = heard.last().unwrap();
    assert_eq!(last.frame_ms, (16.0, 16.0), "the timer's frames");
    assert!(last.work_ms.1 > 0.0 && last.phases.iter().sum::<f64>() > 0.0);
    assert_eq!(last.engines, 1);
    assert_eq!(
        last.pages,
        h.engines().unwrap().main().sim().pool().pages_total()
    );
}

#[test]
fn compare_mode_in_the_worker_gives_both_engines_the_statement() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    frames_until(&mut h, 400, |f, _| !f.busy).expect("the pool warms");
    h.handle(Command::Compare(Some("mysql-8.0.23".into())), &|| 0.0);
    frames_until(&mut h, 400, |f, _| !f.busy && f.panes.len() == 2).expect("compared");
    h.handle(
        Command::Submit {
            ask: 0,
            session: 0,
            sql: "DROP TABLE t1".into(),
        },
        &|| 0.0,
    );
    let f = frames_until(&mut h, 2000, |f, _| {
        f.panes
            .get(1)
            .and_then(|p| p.snapshot.as_ref())
            .is_some_and(|s| s.pages_stale > 0)
    })
    .expect("8.0.23 leaves the dropped table's pages stale");
    assert_eq!(f.panes[0].snapshot.as_ref().unwrap().pages_stale, 0);
}

#[test]
fn a_step_moves_the_clock_to_the_next_mark_and_back() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    let t = std::cell::Cell::new(0.0);
    let clock = || {
        t.set(t.get() + 0.01);
        t.get()
    };
    let mut now = 0.0;
    let mut frame = |h: &mut Host| {
        now += 16.0;
        h.frame(16.0, now, &clock)
    };
    while frame(&mut h).is_none_or(|(f, _)| f.busy) {}
    for _ in 0..30 {
        frame(&mut h);
    }
    let at = |h: &Host| h.engines().unwrap().main().sim().now();
    let before = at(&h);
    h.handle(Command::Step(true), &clock);
    // The next mark may be seconds of a busy server away: the step runs a slice a
    // frame, the frames still coming.
    let mut frames = 0;
    while frame(&mut h).is_none_or(|(f, _)| f.busy) {
        frames += 1;
        assert!(frames < 10_000, "the step never landed");
    }
    let stepped = at(&h);
    assert!(stepped > before, "{before:?} -> {stepped:?}");
    h.handle(Command::Step(false), &clock);
    for _ in 0..50 {
        frame(&mut h);
    }
    assert!(at(&h) < stepped, "back from {stepped:?} to {:?}", at(&h));
}

/// A clock that moves 1 ms at each read of it, from `t`.
fn moving_clock(t: &std::cell::Cell<f64>) -> impl Fn() -> f64 + '_ {
    move || {
        t.set(t.get() + 1.0);
        t.get()
    }
}

/// Frames of 16 ms at 1000x on a [`moving_clock`]: the engines cannot keep up.
/// Returns, per frame, whether it carried a map patch and whether the latch lanes.
fn lagging_frames(h: &mut Host, n: usize) -> Vec<(bool, bool)> {
    let t = std::cell::Cell::new(0.0);
    let clock = moving_clock(&t);
    (0..n)
        .map(|i| {
            let out = h.frame(16.0, i as f64 * 16.0, &clock);
            h.handle(Command::Drawn, &|| 0.0);
            out.map_or((false, false), |(f, _)| {
                (f.panes[0].map.is_some(), f.panes[0].latches.is_some())
            })
        })
        .collect()
}

#[test]
fn engines_behind_the_clock_work_longer_and_repaint_the_map_less() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    view(&mut h, 200, 1.0);
    h.engines.as_mut().expect("opened").settle();
    // At 1x with time standing still the engines keep up: a map every frame.
    let kept_up = frames_until(&mut h, 5, |_, _| false);
    assert!(kept_up.is_none() && !h.lagging);
    h.handle(
        Command::Clock {
            playing: true,
            speed: 1000.0,
        },
        &|| 0.0,
    );
    let painted = lagging_frames(&mut h, 50);
    assert!(
        h.lagging,
        "16 s of a busy server a frame cannot be run in 45 ms"
    );
    let paints = painted.iter().filter(|p| p.0).count();
    let panels = painted.iter().filter(|p| p.1).count();
    // 50 frames of 16 ms: 800 ms, a repaint at most every 100 ms (and the first);
    // the panels as often.
    assert!(
        (2..=9).contains(&paints) && (2..=9).contains(&panels),
        "{paints} maps and {panels} panels in 50 lagging frames"
    );
    // A lagging frame works LAGGING_WORK_MS, not WORK_MS: the clock read shows it.
    let t = std::cell::Cell::new(0.0);
    h.frame(16.0, 10_000.0, &moving_clock(&t));
    assert!(t.get() > LAGGING_WORK_MS, "worked {} ms", t.get());
}

#[test]
fn engines_that_keep_up_repaint_the_map_every_other_frame() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    view(&mut h, 200, 1.0);
    h.engines.as_mut().expect("opened").settle();
    // A second of 16-ms frames at 1x, each patch drawn at once by the page.
    let maps: Vec<bool> = (0..60)
        .map(|i| {
            let out = h.frame(16.0, 1000.0 + i as f64 * 16.0, &|| 0.0);
            h.handle(Command::Drawn, &|| 0.0);
            out.is_some_and(|(f, _)| f.panes[0].map.is_some())
        })
        .collect();
    assert!(!h.lagging);
    let paints = maps.iter().filter(|&&m| m).count();
    assert!(
        (28..=31).contains(&paints),
        "{paints} maps in 60 frames: {maps:?}"
    );
    assert!(
        maps.windows(2).all(|w| !(w[0] && w[1])),
        "never two frames running: {maps:?}"
    );
}

#[test]
fn the_first_engines_wait_for_the_pages_view_then_paint_it_first() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    let busy = |h: &Host| h.engines().unwrap().busy();
    let before = busy(&h);
    // No view yet, early in the worker's life: the build waits for it.
    for i in 0..10 {
        h.frame(16.0, i as f64 * 16.0, &|| 0.0);
    }
    assert_eq!(busy(&h), before, "no build slice before the page's view");
    view(&mut h, 200, 1.0);
    let (f, px) = h.frame(16.0, 176.0, &|| 0.0).expect("a frame");
    assert!(
        f.panes[0].map.is_some() && !px[0].is_empty(),
        "the view's map at once"
    );
    h.frame(16.0, 192.0, &|| 0.0);
    assert_ne!(busy(&h), before, "then the build goes on");
    // A page without a map: the build starts when the wait is over.
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    let before = busy(&h);
    h.frame(16.0, FIRST_VIEW_WAIT_MS, &|| 0.0);
    assert_ne!(busy(&h), before, "no view: built after the wait");
}

/// The page's end of the map: the canvas's bytes and what each band's label row
/// says (`canvas::frame_loop` puts the patches' rows and draws their bands' labels).
#[derive(Default)]
struct PageMap {
    rgba: Vec<u8>,
    labels: Vec<Option<(Tick, crate::model::map_pixels::BandInfo)>>,
    complete: bool,
}

impl PageMap {
    fn put(&mut self, patch: &MapPatch, rows: &[u8]) {
        let row = patch.width as usize * 4;
        self.rgba.resize(row * patch.height as usize, 0);
        let mut offset = 0;
        for &(a, b) in &patch.regions {
            let len = (b - a) as usize * row;
            self.rgba[a as usize * row..b as usize * row]
                .copy_from_slice(&rows[offset..offset + len]);
            offset += len;
        }
        self.labels.resize(patch.infos.len(), None);
        for &i in &patch.bands {
            self.labels[usize::from(i)] = Some((patch.now, patch.infos[usize::from(i)]));
        }
        self.complete = patch.complete;
    }
}

#[test]
fn paused_the_map_comes_to_one_moment_whose_counts_are_server_status() {
    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    view(&mut h, 300, 1.0);
    h.engines.as_mut().expect("opened").settle();
    // A clock that moves 2 ms a read: a frame's map budget (3 ms) paints two of the
    // four bands, a frame that also reports the figures none past the scanned ones.
    let t = std::cell::Cell::new(0.0);
    let clock = || {
        t.set(t.get() + 2.0);
        t.get()
    };
    let mut page = PageMap::default();
    let mut status = None;
    let mut frame = |h: &mut Host, i: usize, page: &mut PageMap| {
        if let Some((f, px)) = h.frame(16.0, i as f64 * 16.0, &clock) {
            if let Some(m) = &f.panes[0].map {
                page.put(m, &px[0]);
                h.handle(Command::Drawn, &|| 0.0);
            }
            if let Some(s) = snapshot(&f) {
                status = Some(s.clone());
            }
        }
    };
    for i in 0..45 {
        frame(&mut h, i, &mut page);
        if i == 20 {
            let e = h.engines.as_mut().expect("opened");
            let session = e.main().sim().console_session();
            assert_eq!(e.submit(session, "DROP TABLE t1"), Ok(1));
        }
    }
    h.handle(
        Command::Clock {
            playing: false,
            speed: 1.0,
        },
        &|| 0.0,
    );
    let mut i = 45;
    while !page.complete && i < 100 {
        frame(&mut h, i, &mut page);
        i += 1;
    }
    for _ in 0..10 {
        frame(&mut h, i, &mut page);
        i += 1;
    }
    assert!(page.complete, "paused, the map comes to show one moment");
    let r = h.engines().expect("opened").main();
    let now = r.sim().now();
    assert!(
        page.labels
            .iter()
            .all(|l| l.is_some_and(|(at, _)| at == now)),
        "every band's label row at {now:?}: {:?}",
        page.labels
    );
    let status = status.expect("the figures");
    assert_eq!(status.now, now);
    let sum = |f: fn(&crate::model::map_pixels::BandInfo) -> u32| -> u64 {
        page.labels
            .iter()
            .flatten()
            .map(|(_, b)| u64::from(f(b)))
            .sum()
    };
    assert_eq!(sum(|b| b.free), status.pages_free, "free pages");
    assert_eq!(sum(|b| b.lru), status.pages_data, "data pages");
    assert_eq!(sum(|b| b.dirty), status.pages_dirty, "dirty pages");
    assert_eq!(sum(|b| b.stale), status.pages_stale, "stale pages");
    // The canvas is the map of this moment, as painted whole afresh.
    let theme = Theme::LIGHT;
    let height = View {
        width: 300,
        dpr: 1.0,
        dark: false,
    }
    .height(r.sim().pool().n_instances());
    let mut fresh = MapPixels::default();
    let ask = PaintAsk {
        width: 300,
        height,
        dpr: 1.0,
        theme: &theme,
        budget_ms: 0.0,
        extra: true,
    };
    assert!(fresh.paint(r.sim(), r.scans(), &ask, &|| 0.0).full);
    assert!(
        page.rgba == fresh.rgba(),
        "the same pixels as a fresh paint"
    );
}

fn open_lesson_step(h: &mut Host, lesson: &str, ask: u32, step: u32, generation: u32) {
    open_lesson_pick(h, lesson, (ask, generation), step, 0);
}

/// Opens step `step` of `lesson` with quiz variant `variant` (seed 0), as `(ask,
/// generation)`.
fn open_lesson_pick(
    h: &mut Host,
    lesson: &str,
    (ask, generation): (u32, u32),
    step: u32,
    variant: u32,
) {
    h.handle(
        Command::OpenLesson {
            ask,
            lesson: lesson.into(),
            source: None,
            step,
            variant,
            seed: 0,
            generation,
        },
        &|| 0.0,
    );
}

#[test]
fn the_next_lesson_step_is_opened_ahead_and_taken_as_a_fresh_open_would_be() {
    let mut h = Host::new();
    open_lesson_step(&mut h, "mdl-queue", 1, 1, 5);
    assert!(matches!(
        answer_to(&mut h, 400, 1),
        Some(Reply::LessonOpened { result: Ok(_), .. })
    ));
    let ahead = |h: &Host| {
        h.prefetch
            .as_ref()
            .map(|p| (p.place.step, p.engines.busy().is_none()))
    };
    assert_eq!(
        ahead(&h).map(|a| a.0),
        Some(2),
        "the step after is opened ahead"
    );
    frames_until(&mut h, 400, |_, _| false);
    assert_eq!(
        ahead(&h),
        Some((2, true)),
        "in the frames' spare time, to its moment"
    );

    // → : taken at once, under the page's new generation.
    open_lesson_step(&mut h, "mdl-queue", 2, 2, 6);
    let (f, _) = h.frame(16.0, 0.0, &|| 0.0).expect("a frame");
    let taken = f.replies.iter().find(|r| r.ask() == Some(2));
    assert!(
        matches!(taken, Some(Reply::LessonOpened { result: Ok(_), .. })),
        "opened in the first frame: {taken:?}"
    );
    assert_eq!(h.engines().unwrap().main().generation(), 6);
    assert_eq!(
        ahead(&h).map(|a| a.0),
        Some(3),
        "and the next one goes ahead"
    );

    // The same moment as the step opened the slow way.
    let mut fresh = Host::new();
    open_lesson_step(&mut fresh, "mdl-queue", 3, 2, 6);
    let Some(Reply::LessonOpened { result, .. }) = answer_to(&mut fresh, 400, 3) else {
        panic!("the step opens");
    };
    let Some(Reply::LessonOpened { result: taken, .. }) = taken.cloned() else {
        unreachable!()
    };
    assert_eq!(taken, result, "the same sessions");
    let (a, b) = (
        h.engines().unwrap().main().sim(),
        fresh.engines().unwrap().main().sim(),
    );
    assert_eq!(a.trace_hash(), b.trace_hash());
    // The slow open settled inside a frame, which then played its 16 ms on.
    assert!(a.now() <= b.now() && b.now() <= a.now() + Tick::from_ms(16));
}

#[test]
fn a_step_the_page_draws_at_random_is_not_opened_ahead_nor_is_one_out_of_the_lesson() {
    let mut h = Host::new();
    // which-statement's steps are quizzes of several variants.
    open_lesson_step(&mut h, "which-statement", 1, 0, 1);
    answer_to(&mut h, 400, 1).expect("the step opens");
    assert!(h.prefetch.is_none());
    open_lesson_step(&mut h, "mdl-queue", 2, 0, 2);
    answer_to(&mut h, 400, 2).expect("the step opens");
    assert!(h.prefetch.is_some());
    // The page's own restart hook asks again for what is running: nothing changes.
    let main = h.engines().unwrap().main();
    let same = Command::Open {
        scenario: main.scenario().into(),
        own: None,
        profile: main.profile().into(),
        knobs: main.knobs().clone(),
        generation: main.generation(),
    };
    h.handle(same, &|| 0.0);
    assert!(
        h.prefetch.is_some(),
        "the same server asked for again keeps it"
    );
    open(&mut h, "drop-table-demo", 3);
    assert!(
        h.prefetch.is_none(),
        "a scenario opened: no lesson step to come"
    );
}

/// A small I1 question (4 GB pool, 1 GB table), as the panel's form holds it.
fn small_advice_form() -> crate::model::advisor::AdvisorForm {
    let mut form = crate::model::advisor::AdvisorForm::default();
    for (f, v) in [
        ("profile", "mysql-5.7"),
        ("pool", "4G"),
        ("instances", "4"),
        ("ahi", "on"),
        ("table-size", "1G"),
        ("workload", "oltp_write_only"),
        ("threads", "8"),
        ("ddl", "DROP TABLE big"),
    ] {
        form.set(f, v);
    }
    form
}

#[test]
fn the_advice_runs_beside_the_engines_with_progress_and_ranks_as_the_model_does() {
    use crate::model::advisor::{AdviceJob, AdviceView};
    let form = small_advice_form();
    let mut direct = AdviceJob::start(&form).unwrap();
    while direct.advance(60).unwrap().is_some() {}
    let want = AdviceView::from(&direct.finish().unwrap());

    let mut h = Host::new();
    open(&mut h, "drop-table-demo", 1);
    h.handle(Command::Advise { ask: 9, form }, &|| 0.0);
    // A clock that moves 1 ms a call: each frame's slice ends after a few seconds.
    let t = std::cell::Cell::new(0.0);
    let clock = moving_clock(&t);
    let mut progress = Vec::new();
    let mut answer = None;
    for i in 0..20_000 {
        if let Some((f, _)) = h.frame(16.0, f64::from(i) * 16.0, &clock) {
            for r in f.replies {
                match r {
                    Reply::AdviceProgress(p) => progress.push(p),
                    Reply::Advised { ask: 9, result } => answer = Some(result),
                    _ => {}
                }
            }
        }
        if answer.is_some() {
            break;
        }
    }
    assert_eq!(answer, Some(Ok(want)), "the model's ranking");
    assert!(progress.len() > 3, "progress told as it went: {progress:?}");
    assert!(progress
        .windows(2)
        .all(|w| (w[0].playbook, w[0].seconds) <= (w[1].playbook, w[1].seconds)));
    assert!(h.engines().is_some(), "the page's engines still there");
}

#[test]
fn advice_it_cannot_model_is_refused_naming_the_field_and_a_cancel_stops_it() {
    let mut h = Host::new();
    let mut form = small_advice_form();
    form.set("fs", "zfs");
    h.handle(Command::Advise { ask: 1, form }, &|| 0.0);
    let Some(Reply::Advised { result: Err(e), .. }) = answer_to(&mut h, 5, 1) else {
        panic!("refused at once");
    };
    assert!(e.contains("--fs"), "names the field: {e}");

    h.handle(
        Command::Advise {
            ask: 2,
            form: small_advice_form(),
        },
        &|| 0.0,
    );
    h.handle(Command::CancelAdvice, &|| 0.0);
    assert!(h.advising.is_none());
    let Some(Reply::Advised { result: Err(e), .. }) = answer_to(&mut h, 5, 2) else {
        panic!("the ask is answered");
    };
    assert_eq!(e, "the advice was cancelled");
}

mod reveal_ahead;
