export default function Inventory() {
  return <div>Inventory</div>;
}
