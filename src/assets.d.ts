// Types for what the bundler imports that is not TypeScript: embedded files, text assets, CSS, and
// upng-js (it ships no types). Declarations only.
declare module "*.bin" {
  const path: string;
  export default path;
}
declare module "*.sh" {
  const text: string;
  export default text;
}
declare module "*.zsh" {
  const text: string;
  export default text;
}
declare module "*.fish" {
  const text: string;
  export default text;
}
declare module "*.css";
declare module "upng-js" {
  interface Image {
    width: number;
    height: number;
  }
  const UPNG: {
    decode(buffer: ArrayBuffer): Image;
    toRGBA8(image: Image): ArrayBuffer[];
  };
  export default UPNG;
}
