export default function Gallery() {
  return <div>Gallery</div>;
}
