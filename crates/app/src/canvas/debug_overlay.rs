//! The `?debug=1` overlay with the engines in the worker: the page's animation
//! frames (how often they come, and their work: the map's rows put on the canvas,
//! the panels drawn, Yew's reducer and re-render) beside the worker's timer frames
//! as it reports them (`Timings`: where its work goes, the speed achieved, the pool).

use crate::model::format;
use crate::model::frame_stats::{FrameStats, Phases};
use crate::model::remote::protocol::{Timings, WORKER_PHASES};
use yew::NodeRef;

/// The page's phases: the map's rows put on the canvas, the panels drawn, Yew.
pub const PAGE_PHASES: [&str; 3] = ["put", "panels", "yew"];

/// How often the overlay is rewritten.
const SHOW_EVERY_MS: f64 = 250.0;

/// The page's animation frames measured so far.
#[derive(Debug, Default)]
pub struct PageTimings {
    stats: FrameStats,
    phases: Phases<3>,
    last_frame_ms: Option<f64>,
    last_shown_ms: Option<f64>,
}

impl PageTimings {
    /// An animation frame that started at `now_ms` and worked `work_ms`, in `phase`.
    pub fn record(&mut self, now_ms: f64, work_ms: f64, phase: &[f64; 3]) {
        if let Some(last) = self.last_frame_ms.replace(now_ms) {
            self.stats.push(now_ms - last, work_ms);
        }
        self.phases.add(phase);
    }

    /// Rewrites the overlay `el` with the page's timings and the worker's (when
    /// heard), at most four times a second.
    pub fn show(&mut self, el: &NodeRef, worker: Option<&Timings>, now_ms: f64) {
        if self
            .last_shown_ms
            .is_some_and(|t| now_ms - t < SHOW_EVERY_MS)
        {
            return;
        }
        self.last_shown_ms = Some(now_ms);
        let Some(el) = el.cast::<web_sys::HtmlElement>() else {
            return;
        };
        el.set_inner_text(&self.text(worker));
        let (i50, _) = self.stats.quantiles(0.5);
        let (i95, w95) = self.stats.quantiles(0.95);
        let dataset = el.dataset();
        let _ = dataset.set("p50", &format!("{i50:.2}"));
        let _ = dataset.set("p95", &format!("{i95:.2}"));
        let _ = dataset.set("work95", &format!("{w95:.2}"));
        let _ = dataset.set("frames", &self.stats.frames().to_string());
        if let Some(w) = worker {
            let _ = dataset.set("workerP95", &format!("{:.2}", w.frame_ms.1));
            let _ = dataset.set("workerWork95", &format!("{:.2}", w.work_ms.1));
        }
    }

    /// The overlay's text: the page's frames first, in the lines the page's-thread
    /// overlay has, then the worker's.
    pub fn text(&self, worker: Option<&Timings>) -> String {
        let (i50, w50) = self.stats.quantiles(0.5);
        let (i95, w95) = self.stats.quantiles(0.95);
        let mut text = format!(
            "frame p50 {i50:.1} ms · p95 {i95:.1} ms\nwork  p50 {w50:.1} ms · p95 {w95:.1} ms (the page)\n"
        );
        match worker {
            Some(w) => text.push_str(&format!(
                "speed {} asked, {} achieved{}\npool {} pages · {} engine(s) in {} worker(s)\npage ms: {}\nworker frame p50 {:.1} ms · p95 {:.1} ms · work p50 {:.1} ms · p95 {:.1} ms\nworker ms: {}",
                format::speed(w.speed),
                format::speed(w.achieved),
                if w.playing { "" } else { " (paused)" },
                format::int(w.pages),
                w.engines,
                w.workers,
                self.phases.named(&PAGE_PHASES),
                w.frame_ms.0,
                w.frame_ms.1,
                w.work_ms.0,
                w.work_ms.1,
                Phases(w.phases).named(&WORKER_PHASES),
            )),
            None => text.push_str(&format!(
                "speed: the worker has not reported yet\npage ms: {}",
                self.phases.named(&PAGE_PHASES)
            )),
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlay_puts_the_pages_frames_beside_the_workers() {
        let mut p = PageTimings::default();
        for i in 0..20 {
            p.record(f64::from(i) * 16.0, 3.0, &[1.0, 1.0, 1.0]);
        }
        let w = Timings {
            frame_ms: (16.0, 17.0),
            work_ms: (11.0, 12.0),
            frames: 240,
            phases: [8.0, 0.5, 2.0, 1.0, 0.3, 0.2],
            playing: true,
            speed: 1000.0,
            achieved: 30.0,
            pages: 8_388_608,
            engines: 2,
            workers: 2,
        };
        let text = p.text(Some(&w));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "frame p50 16.0 ms · p95 16.0 ms");
        assert!(lines[2].starts_with("speed "), "{}", lines[2]);
        assert!(lines[2].contains("asked") && lines[2].contains("achieved"));
        assert!(lines[3].starts_with("pool 8"), "{}", lines[3]);
        assert!(
            lines[3].ends_with("2 engine(s) in 2 worker(s)"),
            "{}",
            lines[3]
        );
        assert!(lines[5].contains("p95 17.0 ms") && lines[5].contains("p95 12.0 ms"));
        assert!(
            lines[6].starts_with("worker ms: advance 8.0 digest 0.5"),
            "{}",
            lines[6]
        );
        assert!(p.text(None).contains("not reported yet"));
    }
}
