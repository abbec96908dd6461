/** Vite handles CSS imports (side effects only). */
declare module '*.css';
