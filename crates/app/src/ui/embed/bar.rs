//! The embed player's controls: play/pause, the scrubber, the clock, the Open in full
//! link, and with `controls=full` back, step and the speed.

use crate::model::format;
use crate::ui::controls::SPEEDS;
use ddlscope_engine::Tick;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`Bar`].
#[derive(Properties, PartialEq, Debug)]
pub struct BarProps {
    pub playing: bool,
    pub speed: f64,
    pub now: Tick,
    pub horizon: Tick,
    /// `controls=full`.
    pub full: bool,
    /// The main page with the same state.
    pub full_url: String,
    pub on_toggle: Callback<()>,
    pub on_speed: Callback<f64>,
    pub on_seek: Callback<Tick>,
    /// `true` steps forward, `false` back.
    pub on_step: Callback<bool>,
}

/// The controls line.
#[function_component(Bar)]
pub fn bar(p: &BarProps) -> Html {
    let on_scrub = p.on_seek.reform(|e: InputEvent| {
        let v = e.target_unchecked_into::<HtmlInputElement>().value();
        Tick::from_ms(v.parse::<f64>().unwrap_or(0.0).max(0.0) as u64)
    });
    let on_speed = {
        let cb = p.on_speed.clone();
        Callback::from(move |e: Event| {
            if let Ok(x) = e
                .target_unchecked_into::<HtmlSelectElement>()
                .value()
                .parse()
            {
                cb.emit(x);
            }
        })
    };
    let label = if p.playing { "Pause" } else { "Play" };
    html! {
        <div class="embed-bar">
            <button type="button" data-testid="play" class={classes!(p.playing.then_some("primary"))} aria-pressed={if p.playing { "true" } else { "false" }} onclick={p.on_toggle.reform(|_: MouseEvent| ())}>
                { if p.playing { "❚❚ " } else { "▶ " } }{ label }
            </button>
            if p.full {
                <button type="button" data-testid="back" aria-label="Step back to the previous event" onclick={p.on_step.reform(|_: MouseEvent| false)}>{ "◀|" }</button>
                <button type="button" data-testid="step" aria-label="Step to the next event" onclick={p.on_step.reform(|_: MouseEvent| true)}>{ "|▶" }</button>
                <select data-testid="speed" aria-label="Speed" onchange={on_speed}>
                    { for SPEEDS.iter().map(|&x| html! {
                        <option value={x.to_string()} selected={x == p.speed}>{ format::speed(x) }</option>
                    }) }
                </select>
            }
            <input class="embed-scrubber" data-testid="scrubber" type="range" min="0" step="any"
                aria-label="Timeline"
                max={p.horizon.as_ms().to_string()} value={p.now.as_ms().to_string()} oninput={on_scrub} />
            <span class="clock" data-testid="virtual-time">{ format!("{} s", format::secs(p.now)) }</span>
            <a class="embed-full" data-testid="open-full" href={p.full_url.clone()} target="_blank" rel="noopener">{ "Open in full ↗" }</a>
        </div>
    }
}
