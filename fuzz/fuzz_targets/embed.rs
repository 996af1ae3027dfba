//! The embed player's fragment (`embed.html#controls=full&panels=map,mdl&start=8...`,
//! `model::embed`) and the page's panel layout parameter (`model::layout`): options
//! or a clear error, never a panic.
#![no_main]

use ddlscope_app::model::embed::EmbedOptions;
use ddlscope_app::model::layout::PanelLayout;
use ddlscope_app::model::link::parse_fragment;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(hash) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(f) = parse_fragment(hash) {
        if let Ok(o) = EmbedOptions::from_params(&f.params) {
            if let (Some(s), Some(e)) = (o.start, o.end) {
                assert!(e > s, "end after start");
            }
            let _ = o.allows("https://a.example", "https://b.example");
        }
    }
    if let Ok(layout) = PanelLayout::parse(hash) {
        let back = PanelLayout::parse(&layout.to_param()).expect("a layout's param reads");
        assert_eq!(back.to_param(), layout.to_param(), "round trip");
    }
});
