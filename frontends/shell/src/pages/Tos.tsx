export default function Tos() {
  return <div>Tos</div>;
}
