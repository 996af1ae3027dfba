//! The Share dialog's poster: the worker's map of a moment painted whole (at 2×),
//! with the labels, midpoints and cursors drawn over it as the page's canvas draws
//! them, encoded as a PNG on a canvas of its own (never on the page).

use super::fit::Layout;
use super::paint::{draw_overlays, Overlay};
use crate::canvas::panel::context_2d;
use crate::canvas::theme::Theme;
use crate::model::remote::protocol::MapPatch;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{HtmlCanvasElement, ImageData};

/// The PNG of `patch` (a whole map: every band) with its pixels `rgba`, as a
/// `data:image/png` address, or why the browser could not make it.
pub fn poster_png(patch: &MapPatch, rgba: &[u8], dark: bool) -> Result<String, String> {
    if rgba.len() != patch.byte_len() || patch.regions != [(0, patch.height)] {
        return Err("the poster's pixels are not a whole map".to_string());
    }
    let canvas: HtmlCanvasElement = gloo::utils::document()
        .create_element("canvas")
        .ok()
        .and_then(|c| c.dyn_into().ok())
        .ok_or("the browser could not make a canvas")?;
    canvas.set_width(patch.width);
    canvas.set_height(patch.height);
    let ctx = context_2d(&canvas)?;
    let image =
        ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), patch.width, patch.height)
            .map_err(|_| "the browser could not take the poster's pixels".to_string())?;
    ctx.put_image_data(&image, 0.0, 0.0)
        .map_err(|_| "the browser could not draw the poster".to_string())?;
    let theme = Theme::for_scheme(dark);
    let layout = Layout::new(patch.infos.len() as u16, patch.width, patch.dpr);
    let overlay = Overlay {
        bands: &patch.infos,
        scans: &patch.scans,
        now: patch.now,
        theme: &theme,
        dpr: patch.dpr,
    };
    draw_overlays(&ctx, &overlay, &layout, &patch.bands);
    canvas
        .to_data_url_with_type("image/png")
        .map_err(|_| "the browser could not encode the poster".to_string())
}
