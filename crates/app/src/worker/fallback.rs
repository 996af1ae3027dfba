//! Where the engines start: in the worker by default, on the page's thread with
//! `?worker=0`, and on the page's thread by themselves when no worker can run (a
//! page opened from a file that did not start one itself, as the workshop bundle
//! does from a blob; a browser without module workers; a worker that stops before
//! its first frame). The page says so in one line; it never stays blank.

/// The query item that keeps the engines on the page's thread.
pub const PAGE_THREAD: &str = "worker=0";
/// The query item a page reloaded after its worker failed carries.
const FAILED: &str = "worker-failed=1";

/// Where the engines should start, from the page's query and protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// In the worker.
    Worker,
    /// On the page's thread, with what the page should say (nothing when asked for).
    PageThread(Option<String>),
}

/// Where the engines start for a page at `search` (`?a=1&b`) over `protocol`
/// (`http:`, `file:`); `early`: the page's own script started the worker (a page
/// opened from a file can start one only that way, from a blob: the workshop
/// bundle).
pub fn start(search: &str, protocol: &str, early: bool) -> Start {
    let items: Vec<&str> = search.trim_start_matches('?').split('&').collect();
    if items.contains(&FAILED) {
        return Start::PageThread(Some(not_started(
            "it stopped before its first frame (the console says why)",
        )));
    }
    if items.contains(&PAGE_THREAD) {
        return Start::PageThread(None);
    }
    if protocol == "file:" && !early {
        return Start::PageThread(Some(not_started(
            "a page opened from a file cannot start one",
        )));
    }
    Start::Worker
}

/// The notice for a worker that did not start, and why.
pub fn not_started(why: &str) -> String {
    format!("The engines run on the page's thread: their Web Worker did not start ({why}).")
}

/// The query of the page reloaded on the page's thread after its worker failed.
pub fn failed_query(search: &str) -> String {
    let kept = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("worker=") && *kv != FAILED);
    let items: Vec<&str> = kept.chain([PAGE_THREAD, FAILED]).collect();
    format!("?{}", items.join("&"))
}

/// Reloads the page with the engines on its own thread, the fragment kept: the
/// worker failed before it drew anything.
pub fn reload_on_page_thread() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let (search, hash) = (
        location.search().unwrap_or_default(),
        location.hash().unwrap_or_default(),
    );
    let path = location.pathname().unwrap_or_default();
    let _ = location.replace(&format!("{path}{}{hash}", failed_query(&search)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_is_the_default_and_worker_0_keeps_the_pages_thread() {
        assert_eq!(start("", "http:", true), Start::Worker);
        assert_eq!(start("?debug=1", "https:", false), Start::Worker);
        assert_eq!(start("?worker=1", "http:", true), Start::Worker);
        assert_eq!(
            start("?debug=1&worker=0", "http:", true),
            Start::PageThread(None)
        );
        let Start::PageThread(Some(said)) = start("", "file:", false) else {
            panic!("a file falls back with a notice");
        };
        assert!(said.contains("opened from a file"), "{said}");
        assert_eq!(
            start("#lesson=x", "file:", true),
            Start::Worker,
            "the bundle's own worker, from a blob"
        );
        assert_eq!(start("?worker=0", "file:", true), Start::PageThread(None));
        let Start::PageThread(Some(said)) = start(&failed_query("?debug=1"), "file:", true) else {
            panic!("a failed worker falls back with a notice, from a file too");
        };
        assert!(said.contains("stopped before its first frame"), "{said}");
        let Start::PageThread(Some(said)) = start(&failed_query("?debug=1"), "http:", true) else {
            panic!("a failed worker falls back with a notice");
        };
        assert!(said.contains("stopped before its first frame"), "{said}");
    }

    #[test]
    fn the_reload_keeps_the_other_query_items() {
        assert_eq!(failed_query(""), "?worker=0&worker-failed=1");
        assert_eq!(
            failed_query("?debug=1&worker=1"),
            "?debug=1&worker=0&worker-failed=1"
        );
        assert_eq!(
            failed_query(&failed_query("?a")),
            "?a&worker=0&worker-failed=1",
            "once"
        );
    }
}
