//! The arrows' layout, on views built by the model's tests from a real `Sim`.

use super::*;
use crate::model::mdl::tests::{alter_behind_readers, long_queue};

#[test]
fn arrows_nest_short_spans_inside_and_are_solid_to_granted_rows() {
    let (view, _) = alter_behind_readers();
    let l = view.locks.iter().find(|l| l.name == "test.t1").unwrap();
    let (arrows, lanes) = arrows(l);
    let got: Vec<(usize, usize, usize, bool)> = arrows
        .iter()
        .map(|a| (a.from, a.to, a.lane, a.to_granted))
        .collect();
    // The short spans (4→3, 5→3) inside, the EXCLUSIVE's two outside; solid to
    // granted rows, dashed to the pending EXCLUSIVE.
    assert_eq!(
        got,
        [
            (4, 3, 0, false),
            (3, 1, 1, true),
            (5, 3, 2, false),
            (3, 0, 3, true)
        ]
    );
    assert_eq!((lanes, gutter_px(lanes)), (4, 42));
}

#[test]
fn past_max_lanes_arrows_share_the_outermost_lane() {
    let view = long_queue();
    let l = view.locks.iter().find(|l| l.name == "test.t1").unwrap();
    let (arrows, lanes) = arrows(l);
    assert_eq!(lanes, MAX_LANES);
    assert!(arrows.iter().all(|a| a.lane < MAX_LANES));
}
