//! What the Share dialog offers besides the link: the same moment as an iframe (with
//! the lines that size it from `ddlscope:resize`), the web component, a Hugo
//! shortcode, an mdBook page and a reveal.js slide, each pre-filled with the moment's
//! state, the page's panels (in the embed's names) and a height that fits them.
//! docs/embedding.md describes each.

/// The embed's name for a main-page panel (`model::panel_layout::PanelId::name`); the flush
/// lists have no embed panel.
pub fn embed_panel(main: &str) -> Option<&'static str> {
    Some(match main {
        "map" => "map",
        "latches" => "latches",
        "mdl" => "mdl",
        "processlist" => "processlist",
        "tps" => "chart-tps",
        "bp" => "chart-bp",
        "waits" => "chart-waits",
        _ => return None,
    })
}

/// About how tall each embed panel is at 800 px wide, CSS px, with its title and gap.
fn panel_height(panel: &str) -> u32 {
    match panel {
        "map" => 300,
        "latches" => 170,
        "mdl" => 220,
        "processlist" => 240,
        "console" => 300,
        _ => 230,
    }
}

/// A height that fits `panels` in an 800 px wide player (both engines stacked when
/// `comparing`): the caption, the panels and the controls. The snippets start at it
/// and then follow the player's own `ddlscope:resize`.
pub fn fit_height(panels: &[&str], comparing: bool) -> u32 {
    let one: u32 = panels.iter().map(|p| panel_height(p)).sum();
    let engines = if comparing { 2 } else { 1 };
    40 + one * engines + 60
}

/// The snippets of one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippets {
    /// The main page's link.
    pub link: String,
    /// `<iframe>` and its resize lines.
    pub iframe: String,
    /// `<script>` and `<ddlscope-player>`.
    pub component: String,
    /// `{{< ddlscope … >}}` (web/hugo/layouts/shortcodes/ddlscope.html).
    pub hugo: String,
    /// An mdBook page's HTML (the component: mdBook passes HTML through).
    pub mdbook: String,
    /// A reveal.js `<section>` and the plugin's lines.
    pub reveal: String,
}

impl Snippets {
    /// The snippets for the main page's `link` (`…/index.html#v1.…&…`): the state is
    /// its fragment's `v1.` item, the site is the folder it lies in.
    pub fn new(link: &str, panels: &[&str], comparing: bool) -> Snippets {
        let (page, fragment) = link.split_once('#').unwrap_or((link, ""));
        let base = match page.rfind('/') {
            Some(i) => &page[..=i],
            None => "",
        };
        let state = fragment
            .split('&')
            .find(|item| item.starts_with('v') && !item.contains('='))
            .unwrap_or_default();
        let panels = if panels.is_empty() {
            "map,latches".to_string()
        } else {
            panels.join(",")
        };
        let height = fit_height(&panels.split(',').collect::<Vec<_>>(), comparing);
        let mut items = Vec::new();
        if !state.is_empty() {
            items.push(state.to_string());
        }
        items.push(format!("panels={panels}"));
        let embed = format!("{base}embed.html#{}", items.join("&"));
        let state_attr = if state.is_empty() {
            String::new()
        } else {
            format!(" state=\"{state}\"")
        };
        let component = format!(
            "<script src=\"{base}ddlscope-player.js\" defer></script>\n\
             <ddlscope-player{state_attr} panels=\"{panels}\"></ddlscope-player>"
        );
        Snippets {
            link: link.to_string(),
            iframe: format!(
                "<iframe id=\"ddlscope-1\" src=\"{embed}\"\n        \
                 style=\"width: 100%; height: {height}px; border: 0\" loading=\"lazy\" title=\"ddlscope\"></iframe>\n\
                 <script>\n  \
                 addEventListener('message', (e) => {{\n    \
                 const frame = document.getElementById('ddlscope-1');\n    \
                 if (e.source === frame.contentWindow && e.data?.type === 'ddlscope:resize') frame.style.height = e.data.height + 'px';\n  \
                 }});\n\
                 </script>"
            ),
            hugo: format!(
                "{{{{< ddlscope{state_attr} panels=\"{panels}\" height=\"{height}\" base=\"{base}\" >}}}}"
            ),
            mdbook: component.clone(),
            reveal: format!(
                "<section>\n  \
                 <iframe src=\"{embed}&poster=1\"\n          \
                 style=\"width: 100%; height: {height}px; border: 0\"></iframe>\n\
                 </section>\n\
                 <!-- once, after reveal.js: -->\n\
                 <script src=\"{base}ddlscope-reveal.js\"></script>\n\
                 <script>Reveal.initialize({{ plugins: [DdlscopeReveal] }});</script>"
            ),
            component,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_pages_panels_get_the_embeds_names() {
        assert_eq!(embed_panel("tps"), Some("chart-tps"));
        assert_eq!(embed_panel("map"), Some("map"));
        assert_eq!(embed_panel("flush"), None);
    }

    #[test]
    fn two_engines_are_taller_than_one() {
        let one = fit_height(&["map", "latches"], false);
        assert_eq!(one, 40 + 470 + 60);
        assert_eq!(fit_height(&["map", "latches"], true), 40 + 940 + 60);
    }

    #[test]
    fn each_snippet_carries_the_moment_panels_and_site() {
        let s = Snippets::new(
            "https://example.org/tools/index.html#v1.abc_DEF&lesson=x",
            &["map", "mdl"],
            false,
        );
        assert_eq!(
            s.link,
            "https://example.org/tools/index.html#v1.abc_DEF&lesson=x"
        );
        assert!(
            s.iframe.starts_with(
                "<iframe id=\"ddlscope-1\" src=\"https://example.org/tools/embed.html#v1.abc_DEF&panels=map,mdl\""
            ),
            "{}",
            s.iframe
        );
        assert!(s.iframe.contains("height: 620px"), "{}", s.iframe);
        assert!(s.iframe.contains("ddlscope:resize"), "{}", s.iframe);
        assert_eq!(
            s.component,
            "<script src=\"https://example.org/tools/ddlscope-player.js\" defer></script>\n\
             <ddlscope-player state=\"v1.abc_DEF\" panels=\"map,mdl\"></ddlscope-player>"
        );
        assert_eq!(
            s.hugo,
            "{{< ddlscope state=\"v1.abc_DEF\" panels=\"map,mdl\" height=\"620\" base=\"https://example.org/tools/\" >}}"
        );
        assert!(s.reveal.contains(
            "src=\"https://example.org/tools/embed.html#v1.abc_DEF&panels=map,mdl&poster=1\""
        ));
        assert!(s.reveal.contains("DdlscopeReveal"));
    }

    #[test]
    fn a_link_without_a_state_still_gives_snippets() {
        let s = Snippets::new("http://127.0.0.1:8080/#", &[], true);
        assert!(s
            .iframe
            .contains("src=\"http://127.0.0.1:8080/embed.html#panels=map,latches\""));
        assert!(!s.component.contains("state="), "{}", s.component);
    }
}
