//! The step's style sheet (`style.rs`) put on the page through the CSSOM: a
//! constructed sheet in `document.adoptedStyleSheets`, which a strict
//! Content-Security-Policy (`style-src 'self'`, no `'unsafe-inline'`) admits where it
//! refuses a `<style>` element's text.

use wasm_bindgen::JsValue;
use web_sys::CssStyleSheet;
use yew::prelude::*;

/// A new constructed sheet, added to the document's adopted sheets.
fn adopt() -> Option<CssStyleSheet> {
    let sheet = CssStyleSheet::new().ok()?;
    let doc = gloo::utils::document();
    let list = js_sys::Array::from(&doc.adopted_style_sheets());
    list.push(&sheet);
    doc.set_adopted_style_sheets(&list);
    Some(sheet)
}

/// Takes `sheet` off the document's adopted sheets.
fn drop_sheet(sheet: &CssStyleSheet) {
    let doc = gloo::utils::document();
    let target: &JsValue = sheet.as_ref();
    let kept: js_sys::Array = doc
        .adopted_style_sheets()
        .iter()
        .filter(|s| s != target)
        .collect();
    doc.set_adopted_style_sheets(&kept);
}

/// One adopted sheet of the component's own, taken off the page when the component
/// goes (`None` where constructed sheets are missing).
#[hook]
pub fn use_own_sheet() -> std::rc::Rc<Option<CssStyleSheet>> {
    let sheet = use_memo((), |_| adopt());
    {
        let sheet = sheet.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(s) = sheet.as_ref() {
                    drop_sheet(s);
                }
            }
        });
    }
    sheet
}

/// Keeps `css` applied to the page while the component lives: one adopted sheet,
/// its text replaced as `css` changes, removed when the component goes.
#[hook]
pub fn use_adopted_sheet(css: String) {
    let sheet = use_own_sheet();
    use_effect_with(css, move |css| {
        if let Some(s) = sheet.as_ref() {
            if let Err(e) = s.replace_sync(css) {
                gloo::console::warn!("the lesson's style sheet was refused", e);
            }
        }
    });
}
