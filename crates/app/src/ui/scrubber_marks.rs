//! The scrubber's markers: a tick for each statement, lock wait and DDL phase on the
//! timeline; clicking one seeks there.

use crate::model::timeline_marks::Mark;
use ddlscope_engine::Tick;
use yew::prelude::*;

/// Marks are drawn at most this often along the track: many in one place are one tick.
const MIN_GAP_PCT: f64 = 0.4;

/// The markers' inputs.
#[derive(Properties, Clone, Debug, PartialEq)]
pub struct ScrubberMarksProps {
    /// The marks, in time order.
    pub marks: Vec<Mark>,
    /// The scrubber's end.
    pub horizon: Tick,
    /// Seek to a mark.
    pub on_seek: Callback<Tick>,
}

/// The markers over the scrubber's track.
#[function_component(ScrubberMarks)]
pub fn scrubber_marks(props: &ScrubberMarksProps) -> Html {
    let end = props.horizon.as_ns().max(1) as f64;
    let mut last = f64::NEG_INFINITY;
    let shown: Vec<(f64, &Mark)> = props
        .marks
        .iter()
        .filter(|m| m.at <= props.horizon)
        .filter_map(|m| {
            let pct = m.at.as_ns() as f64 / end * 100.0;
            (pct - last >= MIN_GAP_PCT).then(|| {
                last = pct;
                (pct, m)
            })
        })
        .collect();
    html! {
        <span class="scrub-marks" data-testid="scrubber-marks" aria-hidden="true">
            { for shown.into_iter().map(|(pct, m)| {
                let (at, seek) = (m.at, props.on_seek.clone());
                html! {
                    <button type="button" tabindex="-1" class={classes!("scrub-mark", m.kind.name())}
                        data-testid={format!("mark-{}", m.kind.name())}
                        ~style={format!("left: {pct:.2}%")}
                        title={format!("{:.3} s: {}", m.at.as_secs_f64(), m.label)}
                        onclick={Callback::from(move |_: MouseEvent| seek.emit(at))}></button>
                }
            }) }
        </span>
    }
}
