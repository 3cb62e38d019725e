//! Writing pictures: SVG text, or PNG pixels through resvg.
//!
//! Terms:
//! - **format** ([`Format`]): SVG or PNG, chosen from a file's extension.
//! - **size**: the length in pixels of the picture's longer side; the other
//!   side keeps the aspect. `None` keeps the picture's natural size.
//! - **save** ([`save`]): encode, then write the file atomically — the file
//!   is replaced whole or not at all, and nothing is written when encoding
//!   fails.

use crate::Picture;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The smallest `size` accepted, in pixels.
pub const MIN_SIZE: u32 = 16;
/// The largest `size` accepted, in pixels (a 8192 × 8192 PNG needs 256 MiB
/// while it is drawn).
pub const MAX_SIZE: u32 = 8192;

/// A picture file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Scalable vector graphics (text).
    Svg,
    /// Portable network graphics (pixels).
    Png,
}

impl Format {
    /// The format a path's extension names (`.svg` or `.png`, any case).
    ///
    /// # Errors
    /// [`RenderError::NoExtension`] or [`RenderError::Extension`] for
    /// anything else.
    pub fn from_path(path: &Path) -> Result<Self, RenderError> {
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            return Err(RenderError::NoExtension {
                path: path.to_path_buf(),
            });
        };
        ext.parse().map_err(|_| RenderError::Extension {
            path: path.to_path_buf(),
            extension: ext.to_string(),
        })
    }

    /// The usual extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Svg => "svg",
            Self::Png => "png",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

impl FromStr for Format {
    type Err = RenderError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "svg" => Ok(Self::Svg),
            "png" => Ok(Self::Png),
            other => Err(RenderError::Extension {
                path: PathBuf::new(),
                extension: other.to_string(),
            }),
        }
    }
}

/// Why a picture could not be encoded or saved.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The output path has no extension to choose a format by.
    #[error("{}: add .svg or .png to the file name to choose a picture format", path.display())]
    NoExtension {
        /// The path given.
        path: PathBuf,
    },
    /// The output path's extension is not a picture format Parlor writes.
    #[error("{}: cannot write .{extension} pictures (use .svg or .png)", path.display())]
    Extension {
        /// The path given.
        path: PathBuf,
        /// Its extension.
        extension: String,
    },
    /// The requested size is out of range.
    #[error("a picture size of {0} pixels is out of range ({MIN_SIZE} to {MAX_SIZE})")]
    Size(u32),
    /// The output path names a directory.
    #[error("{}: is a directory, not a picture file name", path.display())]
    IsDirectory {
        /// The path given.
        path: PathBuf,
    },
    /// A picture too big or too detailed to draw.
    #[error("{0}")]
    TooBig(String),
    /// The data given to draw is unusable (a wrong count, a negative or
    /// non-finite value).
    #[error("{0}")]
    Data(String),
    /// The SVG could not be read back for rasterising (a bug in a drawing).
    #[error("cannot rasterise the picture: {0}")]
    Svg(String),
    /// PNG encoding failed.
    #[error("cannot encode the PNG: {0}")]
    Png(String),
    /// The output's directory does not exist.
    #[error("cannot write {}: the directory {} does not exist", path.display(), dir.display())]
    NoDirectory {
        /// The path given.
        path: PathBuf,
        /// Its directory.
        dir: PathBuf,
    },
    /// The file could not be written; the old file (if any) is untouched.
    #[error("cannot write {}: {reason}", path.display())]
    Write {
        /// The path given.
        path: PathBuf,
        /// What the system said (such as "permission denied").
        reason: String,
    },
}

fn check_size(size: Option<u32>) -> Result<(), RenderError> {
    match size {
        Some(px) if !(MIN_SIZE..=MAX_SIZE).contains(&px) => Err(RenderError::Size(px)),
        _ => Ok(()),
    }
}

/// The picture as PNG bytes, its longer side `size` pixels (natural size for
/// `None`), drawn with the embedded font only.
///
/// # Errors
/// [`RenderError::Size`] for a size out of range; [`RenderError::Svg`] or
/// [`RenderError::Png`] if drawing fails.
pub fn to_png(picture: &Picture, size: Option<u32>) -> Result<Vec<u8>, RenderError> {
    check_size(size)?;
    let (w, h) = picture.pixel_size(size);
    if w > MAX_SIZE || h > MAX_SIZE {
        return Err(RenderError::TooBig(format!(
            "the picture is {w} × {h} pixels at its natural size; give a size up to {MAX_SIZE}"
        )));
    }
    let svg = picture.to_svg_sized(size);
    let options = resvg::usvg::Options {
        font_family: crate::font::FAMILY.to_string(),
        fontdb: crate::font::database(),
        ..resvg::usvg::Options::default()
    };
    let tree =
        resvg::usvg::Tree::from_str(&svg, &options).map_err(|e| RenderError::Svg(e.to_string()))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| RenderError::Png(format!("cannot allocate {w} × {h} pixels")))?;
    let tree_size = tree.size();
    let transform = resvg::tiny_skia::Transform::from_scale(
        w as f32 / tree_size.width(),
        h as f32 / tree_size.height(),
    );
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Png(e.to_string()))
}

/// The picture encoded in `format` at `size` (see [`to_png`]; SVG gets
/// `width`/`height` for that size and keeps its drawing scalable).
///
/// # Errors
/// As [`to_png`].
pub fn encode(
    picture: &Picture,
    format: Format,
    size: Option<u32>,
) -> Result<Vec<u8>, RenderError> {
    match format {
        Format::Svg => {
            check_size(size)?;
            Ok(picture.to_svg_sized(size).into_bytes())
        }
        Format::Png => to_png(picture, size),
    }
}

/// Writes `picture` to `path` as SVG or PNG (by the extension), its longer
/// side `size` pixels (natural size for `None`). The file is written
/// atomically: on any error the old file, if there was one, is untouched and
/// no partial file is left. Returns the format written.
///
/// # Errors
/// A missing or unknown extension, a size out of range, a path that is a
/// directory or in a directory that does not exist or cannot be written, or
/// a failure to draw.
pub fn save(picture: &Picture, path: &Path, size: Option<u32>) -> Result<Format, RenderError> {
    let format = Format::from_path(path)?;
    if path.is_dir() {
        return Err(RenderError::IsDirectory {
            path: path.to_path_buf(),
        });
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(RenderError::NoDirectory {
            path: path.to_path_buf(),
            dir: dir.to_path_buf(),
        });
    }
    let bytes = encode(picture, format, size)?;
    tabletop::write_atomic(path, &bytes).map_err(|e| RenderError::Write {
        path: path.to_path_buf(),
        reason: e.kind().to_string(),
    })?;
    Ok(format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Element, palette};

    fn sample() -> Picture {
        let mut p = Picture::new(200.0, 100.0, "sample");
        p.push(
            Element::new("rect")
                .attr("x", 0)
                .attr("y", 0)
                .attr("width", 100)
                .attr("height", 100)
                .fill(palette::CHUTE),
        );
        p.push(crate::draw::label(
            150.0,
            50.0,
            "Hi",
            20.0,
            crate::draw::Anchor::Middle,
        ));
        p
    }

    #[test]
    fn formats_come_from_extensions() {
        assert_eq!(Format::from_path(Path::new("a.svg")).unwrap(), Format::Svg);
        assert_eq!(
            Format::from_path(Path::new("a/b.PNG")).unwrap(),
            Format::Png
        );
        let err = Format::from_path(Path::new("a.jpg"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("a.jpg") && err.contains(".jpg") && err.contains(".svg or .png"),
            "{err}"
        );
        let err = Format::from_path(Path::new("picture"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("add .svg or .png"), "{err}");
    }

    #[test]
    fn png_is_the_requested_size_and_has_the_drawing() {
        let png = to_png(&sample(), Some(400)).unwrap();
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (400, 200));
        // Left half is chute blue, scaled 2×.
        let px = pixmap.pixel(50, 100).unwrap();
        assert_eq!(
            (px.red(), px.green(), px.blue()),
            (palette::CHUTE.r, palette::CHUTE.g, palette::CHUTE.b)
        );
        // The label drew some dark pixels in the right half.
        let dark = (200..400)
            .flat_map(|x| (0..200).map(move |y| (x, y)))
            .filter(|&(x, y)| pixmap.pixel(x, y).is_some_and(|p| p.red() < 100))
            .count();
        assert!(dark > 50, "{dark} dark pixels: the label was not drawn");
        let natural =
            resvg::tiny_skia::Pixmap::decode_png(&to_png(&sample(), None).unwrap()).unwrap();
        assert_eq!((natural.width(), natural.height()), (200, 100));
    }

    #[test]
    fn saving_writes_whole_files_and_refuses_bad_paths() {
        let dir = tempfile::tempdir().unwrap();
        let svg = dir.path().join("a.svg");
        assert_eq!(save(&sample(), &svg, Some(300)).unwrap(), Format::Svg);
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(
            text.starts_with("<?xml") && text.contains("width=\"300\""),
            "{text}"
        );
        let png = dir.path().join("a.png");
        save(&sample(), &png, None).unwrap();
        assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));

        let bad = [
            dir.path().join("a.gif"),
            dir.path().join("noext"),
            dir.path().join("missing/dir/a.svg"),
        ];
        for path in &bad {
            let err = save(&sample(), path, None).unwrap_err().to_string();
            assert!(err.contains(&path.display().to_string()), "{err}");
            assert!(!path.exists());
        }
        let err = save(&sample(), &dir.path().join("big.png"), Some(100_000)).unwrap_err();
        assert!(matches!(err, RenderError::Size(100_000)), "{err}");
        std::fs::create_dir(dir.path().join("d.svg")).unwrap();
        let err = save(&sample(), &dir.path().join("d.svg"), None)
            .unwrap_err()
            .to_string();
        assert!(err.contains("is a directory"), "{err}");
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["a.png", "a.svg", "d.svg"]);
    }
}
