//! A small SVG document model: build elements, then write them as text.
//!
//! Terms:
//! - **element** ([`Element`]): an SVG tag with attributes and children
//!   (other elements or text). Built with chained calls:
//!   `Element::new("rect").attr("x", 10.0).data("square", 42)`.
//! - **value** ([`Value`]): an attribute value; numbers are written with at
//!   most two decimals so documents stay small and stable.
//! - **data attribute**: `data-NAME="…"`, which SVG renderers ignore and a web
//!   page reads to make the picture interactive.
//! - **title**: a `<title>` child, shown as a tooltip by browsers and read
//!   by screen readers.
//! - **picture** ([`Picture`]): a finished document with a size in user
//!   units; [`Picture::to_svg`] writes it, [`crate::save`] writes it to a file.
//!   Its `<svg>` carries the class [`crate::scheme::PICTURE_CLASS`], which
//!   a page's dark scheme ([`crate::scheme`]) repaints.
//!
//! Text and attribute values are escaped when written, so any string (a board
//! name with `<` or `&`) is safe to put in a picture.

use std::fmt::{self, Write as _};

/// An attribute value, already formatted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value(String);

impl Value {
    /// The value as written (before XML escaping).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Formats a coordinate with at most two decimals and no trailing zeros
/// (`12`, `12.5`, `-0.25`); not-a-number and infinities are written as `0`.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "0".into();
    }
    let rounded = (x * 100.0).round() / 100.0;
    // Avoid "-0".
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    let mut s = format!("{rounded:.2}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    s
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Self(num(x))
    }
}

impl From<f32> for Value {
    fn from(x: f32) -> Self {
        Self(num(f64::from(x)))
    }
}

macro_rules! value_from_display {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(x: $t) -> Self {
                Self(x.to_string())
            }
        }
    )*};
}
value_from_display!(
    u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, bool, char
);

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Self(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Self {
        Self(s.clone())
    }
}

impl From<crate::Colour> for Value {
    fn from(c: crate::Colour) -> Self {
        Self(c.to_string())
    }
}

/// A child of an element.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A nested element.
    Element(Element),
    /// Character data (escaped when written).
    Text(String),
}

/// An SVG element: a tag name, attributes in the order set, and children.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    name: String,
    attrs: Vec<(String, Value)>,
    children: Vec<Node>,
}

impl Element {
    /// An element with no attributes or children, such as `Element::new("g")`.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            attrs: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Sets attribute `key` (replacing an earlier value) and returns the
    /// element, for chaining.
    #[must_use]
    pub fn attr(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.set(key, value);
        self
    }

    /// Sets attribute `key`, replacing an earlier value.
    pub fn set(&mut self, key: &str, value: impl Into<Value>) {
        let value = value.into();
        match self.attrs.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.attrs.push((key.to_string(), value)),
        }
    }

    /// Sets the data attribute `data-KEY` (for a web page to read).
    #[must_use]
    pub fn data(self, key: &str, value: impl Into<Value>) -> Self {
        self.attr(&format!("data-{key}"), value)
    }

    /// Sets `class`.
    #[must_use]
    pub fn class(self, class: &str) -> Self {
        self.attr("class", class)
    }

    /// Sets `id`.
    #[must_use]
    pub fn id(self, id: &str) -> Self {
        self.attr("id", id)
    }

    /// Sets `fill`.
    #[must_use]
    pub fn fill(self, colour: impl Into<Value>) -> Self {
        self.attr("fill", colour)
    }

    /// Sets `stroke` and `stroke-width`.
    #[must_use]
    pub fn stroke(self, colour: impl Into<Value>, width: f64) -> Self {
        self.attr("stroke", colour).attr("stroke-width", width)
    }

    /// Adds a `<title>` child: a tooltip in browsers.
    #[must_use]
    pub fn title(self, text: impl Into<String>) -> Self {
        self.child(Element::new("title").text(text))
    }

    /// Adds a child element.
    #[must_use]
    pub fn child(mut self, child: Element) -> Self {
        self.push(child);
        self
    }

    /// Adds child elements.
    #[must_use]
    pub fn children_from(mut self, children: impl IntoIterator<Item = Element>) -> Self {
        self.extend(children);
        self
    }

    /// Adds text content (escaped when written).
    #[must_use]
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.children.push(Node::Text(text.into()));
        self
    }

    /// Adds a child element.
    pub fn push(&mut self, child: Element) {
        self.children.push(Node::Element(child));
    }

    /// Adds child elements.
    pub fn extend(&mut self, children: impl IntoIterator<Item = Element>) {
        self.children
            .extend(children.into_iter().map(Node::Element));
    }

    /// The tag name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value of attribute `key`, if set.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every attribute, in the order set.
    pub fn attrs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.attrs.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// The children.
    pub fn nodes(&self) -> &[Node] {
        &self.children
    }

    /// The child elements.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            Node::Text(_) => None,
        })
    }

    /// This element's own text children, joined (not its descendants').
    pub fn own_text(&self) -> String {
        self.children
            .iter()
            .filter_map(|n| match n {
                Node::Text(t) => Some(t.as_str()),
                Node::Element(_) => None,
            })
            .collect()
    }

    /// This element and all elements below it, depth first, in document order.
    pub fn descendants(&self) -> Vec<&Element> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            out.push(e);
            let before = stack.len();
            stack.extend(e.elements());
            stack[before..].reverse();
        }
        out
    }

    /// Writes this element as SVG text.
    pub fn write_to(&self, out: &mut String) {
        // Iterative, so deep nesting cannot overflow the stack.
        enum Work<'a> {
            Open(&'a Element),
            Close(&'a str),
            Text(&'a str),
        }
        let mut stack = vec![Work::Open(self)];
        while let Some(work) = stack.pop() {
            match work {
                Work::Open(e) => {
                    out.push('<');
                    out.push_str(&e.name);
                    for (k, v) in &e.attrs {
                        out.push(' ');
                        out.push_str(k);
                        out.push_str("=\"");
                        escape_into(out, v.as_str(), true);
                        out.push('"');
                    }
                    if e.children.is_empty() {
                        out.push_str("/>");
                        continue;
                    }
                    out.push('>');
                    stack.push(Work::Close(&e.name));
                    for child in e.children.iter().rev() {
                        stack.push(match child {
                            Node::Element(c) => Work::Open(c),
                            Node::Text(t) => Work::Text(t),
                        });
                    }
                }
                Work::Close(name) => {
                    out.push_str("</");
                    out.push_str(name);
                    out.push('>');
                }
                Work::Text(t) => escape_into(out, t, false),
            }
        }
    }
}

/// Appends `s` to `out` with XML's special characters escaped (and quotes
/// too when `attribute`). Control characters that XML 1.0 forbids are
/// dropped, so no input can make a document that fails to parse.
pub fn escape_into(out: &mut String, s: &str, attribute: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\'' if attribute => out.push_str("&apos;"),
            '\n' | '\t' | '\r' if attribute => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            '\n' | '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}

/// `s` with XML's special characters escaped (for text content).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s, false);
    out
}

/// A `<g>` (group) element.
pub fn group() -> Element {
    Element::new("g")
}

/// A finished picture: a size in user units (pixels at scale 1), a title,
/// and its elements.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    width: f64,
    height: f64,
    title: String,
    background: Option<crate::Colour>,
    root: Element,
}

impl Picture {
    /// An empty picture `width` × `height` user units, titled `title` (the
    /// document's `<title>`), with a white background.
    pub fn new(width: f64, height: f64, title: impl Into<String>) -> Self {
        Self {
            width: if width.is_finite() {
                width.max(1.0)
            } else {
                1.0
            },
            height: if height.is_finite() {
                height.max(1.0)
            } else {
                1.0
            },
            title: title.into(),
            background: Some(crate::palette::BACKGROUND),
            root: group(),
        }
    }

    /// The same picture with another background colour, or a transparent one.
    #[must_use]
    pub fn with_background(mut self, colour: Option<crate::Colour>) -> Self {
        self.background = colour;
        self
    }

    /// Adds an element on top of what is there.
    pub fn push(&mut self, element: Element) {
        self.root.push(element);
    }

    /// Adds elements on top of what is there.
    pub fn extend(&mut self, elements: impl IntoIterator<Item = Element>) {
        self.root.extend(elements);
    }

    /// Width in user units.
    pub fn width(&self) -> f64 {
        self.width
    }

    /// Height in user units.
    pub fn height(&self) -> f64 {
        self.height
    }

    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The top-level elements, in drawing order.
    pub fn elements(&self) -> impl Iterator<Item = &Element> {
        self.root.elements()
    }

    /// Every element of the picture, depth first, in document order.
    pub fn descendants(&self) -> Vec<&Element> {
        let mut all = self.root.descendants();
        all.remove(0);
        all
    }

    /// The pixel size for a picture whose longer side is `longer` pixels
    /// (the natural size, rounded, for `None`): `(width, height)`, each at
    /// least 1.
    pub fn pixel_size(&self, longer: Option<u32>) -> (u32, u32) {
        let scale = match longer {
            Some(px) => f64::from(px) / self.width.max(self.height),
            None => 1.0,
        };
        let w = (self.width * scale).round().max(1.0);
        let h = (self.height * scale).round().max(1.0);
        (w as u32, h as u32)
    }

    /// The SVG document at its natural size.
    pub fn to_svg(&self) -> String {
        self.to_svg_sized(None)
    }

    /// The SVG document whose `width`/`height` make its longer side `longer`
    /// pixels (the drawing is scaled through the `viewBox`).
    pub fn to_svg_sized(&self, longer: Option<u32>) -> String {
        let (w, h) = self.pixel_size(longer);
        let mut svg = Element::new("svg")
            .attr("xmlns", "http://www.w3.org/2000/svg")
            .attr("version", "1.1")
            .attr("width", w)
            .attr("height", h)
            .attr(
                "viewBox",
                format!("0 0 {} {}", num(self.width), num(self.height)),
            )
            .attr("font-family", crate::font::FAMILY_LIST)
            .class(crate::scheme::PICTURE_CLASS)
            .child(Element::new("title").text(self.title.as_str()));
        if let Some(bg) = self.background {
            svg.push(
                Element::new("rect")
                    .attr("width", self.width)
                    .attr("height", self.height)
                    .fill(bg)
                    .class("background"),
            );
        }
        let mut out = String::with_capacity(4096);
        out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        svg.children.extend(self.root.children.iter().cloned());
        svg.write_to(&mut out);
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-2.25), "-2.25");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(f64::INFINITY), "0");
    }

    #[test]
    fn text_and_attributes_are_escaped() {
        let e = Element::new("text")
            .attr("data-name", "a \"b\" & 'c' <d>")
            .text("x < y & z > w");
        let mut out = String::new();
        e.write_to(&mut out);
        assert_eq!(
            out,
            "<text data-name=\"a &quot;b&quot; &amp; &apos;c&apos; &lt;d&gt;\">x &lt; y &amp; z &gt; w</text>"
        );
        assert_eq!(escape("bell\u{7}"), "bell");
    }

    #[test]
    fn setting_an_attribute_twice_replaces_it() {
        let e = Element::new("rect")
            .attr("x", 1)
            .attr("x", 2.5)
            .data("square", 7);
        assert_eq!(e.get("x"), Some("2.5"));
        assert_eq!(e.get("data-square"), Some("7"));
        assert_eq!(e.attrs().count(), 2);
    }

    #[test]
    fn documents_parse_as_xml_with_what_was_put_in() {
        let mut p = Picture::new(200.0, 100.0, "A & B <board>");
        p.push(
            group()
                .class("squares")
                .child(Element::new("rect").data("square", 1).title("square 1"))
                .child(Element::new("text").text("<1>")),
        );
        let svg = p.to_svg_sized(Some(400));
        let doc = resvg::usvg::roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some("400"));
        assert_eq!(root.attribute("height"), Some("200"));
        assert_eq!(root.attribute("viewBox"), Some("0 0 200 100"));
        let title = root.children().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some("A & B <board>"));
        let text = root.descendants().find(|n| n.has_tag_name("text")).unwrap();
        assert_eq!(text.text(), Some("<1>"));
        assert_eq!(p.descendants().len(), 4);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let mut e = group();
        for _ in 0..100_000 {
            e = group().child(e);
        }
        let mut out = String::new();
        e.write_to(&mut out);
        assert_eq!(out.len(), 100_000 * 7 + 4);
        assert_eq!(e.descendants().len(), 100_001);
        // Dropping a deep tree recursively would overflow; leak it instead is
        // not acceptable either, so unnest it iteratively.
        let mut current = Some(e);
        while let Some(mut node) = current.take() {
            current = match node.children.pop() {
                Some(Node::Element(child)) => Some(child),
                _ => None,
            };
        }
    }

    #[test]
    fn pixel_sizes_keep_the_aspect() {
        let p = Picture::new(300.0, 150.0, "t");
        assert_eq!(p.pixel_size(None), (300, 150));
        assert_eq!(p.pixel_size(Some(1000)), (1000, 500));
        assert_eq!(p.pixel_size(Some(1)), (1, 1));
    }
}
