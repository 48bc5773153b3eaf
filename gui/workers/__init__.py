"""Worker threads for slow work (downloads); they report by Qt signal."""
