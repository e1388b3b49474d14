"""Render a `tmux capture-pane -p -e` text capture (ANSI SGR colours) to SVG, and to PNG when
Pillow is installed. Usage: render.py CAPTURE.ansi OUT_BASENAME [COLUMNS ROWS]

Only what tmux emits is handled: SGR 0/1/22/7/27/39/49, 30-37/40-47/90-97/100-107, 38;5;n / 48;5;n
and 38;2;r;g;b / 48;2;r;g;b. Every cell is one column (the capture is of a terminal grid).
"""
import html
import re
import sys

BASE16 = ["#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
          "#666666", "#d54e53", "#b9ca4a", "#e7c547", "#7aa6da", "#c397d8", "#70c0b1", "#eaeaea"]
FG, BG = "#d0d0d0", "#14161a"


def xterm256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + 10 * (n - 232)
    return "#%02x%02x%02x" % (v, v, v)


def parse(text, cols, rows):
    grid = [[(" ", FG, BG, False) for _ in range(cols)] for _ in range(rows)]
    for y, line in enumerate(text.split("\n")[:rows]):
        fg, bg, bold, rev = FG, BG, False, False
        x = 0
        for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
            if m.group(2) is not None:
                if x < cols:
                    f, b = (bg, fg) if rev else (fg, bg)
                    grid[y][x] = (m.group(2), f, b, bold)
                x += 1
                continue
            codes = [int(c) if c else 0 for c in m.group(1).split(";")]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    fg, bg, bold, rev = FG, BG, False, False
                elif c == 1:
                    bold = True
                elif c == 22:
                    bold = False
                elif c == 7:
                    rev = True
                elif c == 27:
                    rev = False
                elif c == 39:
                    fg = FG
                elif c == 49:
                    bg = BG
                elif 30 <= c <= 37:
                    fg = BASE16[c - 30]
                elif 90 <= c <= 97:
                    fg = BASE16[c - 90 + 8]
                elif 40 <= c <= 47:
                    bg = BASE16[c - 40]
                elif 100 <= c <= 107:
                    bg = BASE16[c - 100 + 8]
                elif c in (38, 48) and i + 1 < len(codes):
                    if codes[i + 1] == 5 and i + 2 < len(codes):
                        col = xterm256(codes[i + 2])
                        i += 2
                    elif codes[i + 1] == 2 and i + 4 < len(codes):
                        col = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                        i += 4
                    else:
                        col = None
                    if col:
                        if c == 38:
                            fg = col
                        else:
                            bg = col
                    i += 1
                i += 1
    return grid


def svg(grid, out, cw=9, ch=18):
    rows, cols = len(grid), len(grid[0])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * cw}" height="{rows * ch}" '
             f'font-family="DejaVu Sans Mono, monospace" font-size="15">',
             f'<rect width="100%" height="100%" fill="{BG}"/>']
    for y, row in enumerate(grid):
        for x, (c, f, b, bold) in enumerate(row):
            if b != BG:
                parts.append(f'<rect x="{x * cw}" y="{y * ch}" width="{cw}" height="{ch}" fill="{b}"/>')
        for x, (c, f, b, bold) in enumerate(row):
            if c != " ":
                w = ' font-weight="bold"' if bold else ""
                parts.append(f'<text x="{x * cw}" y="{y * ch + 14}" fill="{f}"{w}>{html.escape(c)}</text>')
    parts.append("</svg>")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))


def png(grid, out, cw=9, ch=18):
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        return False
    rows, cols = len(grid), len(grid[0])
    img = Image.new("RGB", (cols * cw, rows * ch), BG)
    d = ImageDraw.Draw(img)
    try:
        font = ImageFont.truetype("DejaVuSansMono.ttf", 15)
        bold_font = ImageFont.truetype("DejaVuSansMono-Bold.ttf", 15)
    except OSError:
        font = bold_font = ImageFont.load_default()
    for y, row in enumerate(grid):
        for x, (c, f, b, bold) in enumerate(row):
            if b != BG:
                d.rectangle([x * cw, y * ch, (x + 1) * cw - 1, (y + 1) * ch - 1], fill=b)
            if c != " ":
                d.text((x * cw, y * ch), c, fill=f, font=bold_font if bold else font)
    img.save(out)
    return True


def main():
    src, base = sys.argv[1], sys.argv[2]
    cols = int(sys.argv[3]) if len(sys.argv) > 3 else 110
    rows = int(sys.argv[4]) if len(sys.argv) > 4 else 26
    with open(src, encoding="utf-8") as f:
        grid = parse(f.read(), cols, rows)
    svg(grid, base + ".svg")
    print(base + ".svg")
    if png(grid, base + ".png"):
        print(base + ".png")


main()
