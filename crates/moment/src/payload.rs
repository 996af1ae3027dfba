//! A link's state item, `v1.<payload>`: JSON, deflated (`miniz_oxide`) and written in
//! base64url without padding; and why one cannot be read ([`LinkError`], whose text
//! the page and the CLI show). Decoding never panics and allocates at most
//! [`MAX_INFLATED`] bytes, whatever the link.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use std::fmt;

/// The link format written; every earlier one is read.
pub const LINK_VERSION: u32 = 1;
/// The longest fragment read, in bytes. A 50-statement session takes about 2 KB.
pub const MAX_FRAGMENT: usize = 16 * 1024;
/// The most a payload may inflate to: a bound on what a hostile link can allocate.
const MAX_INFLATED: usize = 256 * 1024;

/// Why a fragment could not be read. The text is what the page shows.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// Longer than [`MAX_FRAGMENT`].
    TooLong(usize),
    /// `v7.`: a version this page does not know.
    UnknownVersion(String),
    /// Not base64url, or not a deflate stream, or cut short.
    Damaged(String),
    /// The payload is not a link state (missing or mistyped fields).
    Malformed(String),
    /// A state or parameter out of range.
    Invalid(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::TooLong(n) => write!(
                f,
                "This link is too long ({n} bytes; at most {MAX_FRAGMENT}): it cannot be opened."
            ),
            LinkError::UnknownVersion(v) => write!(
                f,
                "This link was made by a newer ddlscope (format {v}; this page reads v1 to v{LINK_VERSION})."
            ),
            LinkError::Damaged(why) => write!(
                f,
                "This link is cut short or damaged ({why}): copy it again in full."
            ),
            LinkError::Malformed(why) => write!(f, "This link's state is malformed: {why}."),
            LinkError::Invalid(why) => write!(f, "This link asks for something out of range: {why}."),
        }
    }
}

/// The state item for `json`: `v1.` and the deflated JSON in base64url.
pub fn encode(json: &[u8]) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(json, 9);
    format!("v{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// The JSON a state item (`v1.…`) carries.
pub fn decode(payload: &str) -> Result<Vec<u8>, LinkError> {
    if payload.len() > MAX_FRAGMENT {
        return Err(LinkError::TooLong(payload.len()));
    }
    let (version, body) = payload
        .split_once('.')
        .ok_or_else(|| LinkError::Damaged("no version mark".into()))?;
    if version != "v1" {
        return Err(LinkError::UnknownVersion(version.to_string()));
    }
    let packed = URL_SAFE_NO_PAD
        .decode(body.trim_end_matches('='))
        .map_err(|e| LinkError::Damaged(format!("base64url: {e}")))?;
    miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED)
        .map_err(|e| LinkError::Damaged(inflate_error(e.status)))
}

/// Why the payload did not inflate, in words.
fn inflate_error(status: miniz_oxide::inflate::TINFLStatus) -> String {
    use miniz_oxide::inflate::TINFLStatus as S;
    match status {
        S::HasMoreOutput => format!("the state inflates to over {} KB", MAX_INFLATED / 1024),
        S::FailedCannotMakeProgress | S::NeedsMoreInput => "the state ends early".into(),
        _ => "the state is not deflated data".into(),
    }
}

/// Whether a fragment's item is its state (`v1.…`): a version mark without `=`.
pub fn is_state_item(item: &str) -> bool {
    !item.contains('=') && is_version_mark(item)
}

/// `v` and digits before a dot: the start of a state item.
fn is_version_mark(item: &str) -> bool {
    let head = item.split('.').next().unwrap_or("");
    head.len() > 1 && head.starts_with('v') && head[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The state item of a link: a whole address (`https://…/#v1.…&k=v`), its fragment
/// (`#v1.…`) or the item alone; `None` when it carries no state.
pub fn state_item(link: &str) -> Option<&str> {
    let fragment = link.split_once('#').map_or(link, |(_, f)| f);
    fragment.split('&').find(|i| is_state_item(i))
}
