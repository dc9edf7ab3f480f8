/**
 * A solid red button with white text that keeps 4.5:1 contrast in both themes (the theme's dark
 * `destructive` is a light red meant for text, too light under white text).
 */
export const DANGER_BUTTON =
  'bg-red-700 text-white shadow-xs hover:bg-red-800 focus-visible:ring-red-700/40';
