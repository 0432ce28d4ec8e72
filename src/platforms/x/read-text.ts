// X answers a post's text HTML-escaped (platforms/x.md §11): `&`, `<` and `>` come back as `&amp;`,
// `&lt;` and `&gt;`. What people read, and what a look-back compares, is the text as written.
export const readXText = (text: string): string => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
